"""Signs of Latin-script languages that have no module of their own yet.

:func:`~rawrag_tui.lang.detect` reads Latin-script text as English unless
it holds more of one of these languages' function words than of English's
(:data:`.en.SIGNALS`): then it is undetermined, and English rules (stems,
"May", "yesterday") are not run on it. Words English also uses ("die", "am",
"was", "in", "a") are left out.
"""

from __future__ import annotations

SIGNALS: dict[str, frozenset[str]] = {
    "de": frozenset("und der das ist ich nicht ein eine mit auf für wir sie es zu den dem im bei wann wie "
                    "welcher welche wo wohnt sind auch noch schon aber oder mein meine dein deine dann nach "
                    "hatte hatten habe wurde wurden ihre ihren seine seiner bevor früher jetzt immer neue neuer neues "
                    "heute gestern morgen uhr januar februar märz mai juni juli oktober dezember du dich mich mir wer "
                    "wenn dass welchen welchem welches heißt lautet".split()),
    "es": frozenset("el la los las que y es por con para una un mi se lo del al pero muy cuando donde "
                    "está estoy tengo como también ya su sus nos".split()),
    "pt": frozenset("o os as que e em é um uma com para não da do no na mas muito quando onde "
                    "está estou tenho como também já seu sua nos".split()),
    "fr": frozenset("le la les et est je tu il elle nous vous une un des du pour pas que qui avec sur dans "
                    "mais très quand où suis c'est".split()),
}
