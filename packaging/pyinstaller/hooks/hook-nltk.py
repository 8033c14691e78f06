# rawrag uses only NLTK's Porter stemmer (rawrag eval), which needs no NLTK
# data: this replaces the contributed hook, which bundles every nltk_data
# folder found on the build machine.
from PyInstaller.utils.hooks import collect_data_files

datas = collect_data_files("nltk", include_py_files=False)
