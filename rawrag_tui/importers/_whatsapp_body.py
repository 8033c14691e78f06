"""What a WhatsApp message body is, in any language: words, a file, a notice.

WhatsApp translates the text it writes into a chat ("<Media omitted>",
"Bild weggelassen", "<Без медиафайлов>", "This message was deleted") into
every language it ships, so a list of phrases is always a language short.
The export's structure tells them apart instead:

- iOS opens every body it wrote itself (media placeholders, deleted
  notices, system events) with U+200E, the left-to-right mark; a person's
  keyboard does not type it, so a body that opens with it is never words.
- Android writes a placeholder as the whole body in angle brackets
  (``<Media omitted>``, ``<Medien ausgeschlossen>``, ``<Без медиафайлов>``).
- An attached file is ``<label: file.ext>`` (iOS) or ``file.ext (label)``
  (Android), whatever the label's language; the file's name is kept.
- Android writes deleted notices as plain text with no mark: those are
  told by a table of WhatsApp's own notice per language
  (``_whatsapp_notices``, whole bodies only); the edited mark
  ``<This message was edited>`` at a body's end is read from a list of
  phrases, or from its U+200E.

Known phrases only choose the counter (``media`` or ``system``) for a body
the structure already marked; they never decide alone that words are not
words, except for Android's deleted notices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._whatsapp_notices import is_deleted_notice

_BIDI = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
#: The mark iOS puts before what WhatsApp itself wrote.
_LRM = "\u200e"

#: ``<label: file.ext>`` (iOS attachments: "<attached: ...>", "<Anhang: ...>",
#: a full-width colon in CJK), label in any language, the file a name with an extension.
_ATTACHED = re.compile(r"^<(?P<label>[^<>:：\d]{1,40})[:：] ?(?P<file>[^<>]+?\.[^\W_]{1,6})>$")
#: ``file.ext (label)`` (Android: "IMG-20240113-WA0003.jpg (file attached)",
#: "(Datei angehängt)", "(файл добавлен)"): a name without spaces, or any name
#: when the label is one WhatsApp writes.
_FILE_ATTACHED = re.compile(r"^(?P<file>[^\s()<>][^()<>]*?\.[^\W_]{1,6}) \((?P<label>[^()\d]{2,40})\)$")
_KNOWN_FILE_LABELS = re.compile(
    r"^(file attached|datei angehängt|archivo adjunto|fichier joint|arquivo anexado|ficheiro anexado|"
    r"file allegato|bestand bijgevoegd|файл добавлен|soubor připojen|plik załączony|dosya ekli|"
    r"ファイル添付|添付ファイル|文件已附加)$",
    re.IGNORECASE,
)
#: The whole body in angle brackets, words inside: an Android placeholder.
#: A link or address someone typed in brackets (``<https://...>``) is not one.
_BRACKETED = re.compile(r"^<[^<>\n:/@=]*[^\W\d_][^<>\n:/@=]*>$")
#: Placeholder phrases, only to count a marked body as media rather than system.
_MEDIA_WORDS = re.compile(
    r"(omitted|weggelassen|ausgeschlossen|ausgelassen|omitid|omis|absent|ocultad|oculta|omess|weggelaten|"
    r"отсутствует|без медиафайлов|vynechán|pominięto|dahil edilmedi|tidak disertakan|含まれていません|省略|"
    r"已忽略|생략|^null$)",
    re.IGNORECASE,
)
_EDITED = re.compile(
    r"\s*<(this message was edited|diese nachricht wurde bearbeitet|se editó este mensaje|"
    r"ce message a été modifié|mensagem editada|messaggio modificato|dit bericht is bewerkt|"
    r"сообщение изменено|zpráva byla upravena|wiadomość edytowana|bu mesaj düzenlendi|"
    r"pesan ini telah diedit|このメッセージは編集されました|메시지가 수정되었습니다|已编辑)\.?>$",
    re.IGNORECASE,
)
#: iOS's edited mark: U+200E then ``<...>`` at the end of a body with words before it.
_EDITED_MARKED = re.compile(r"\s*\u200e<[^<>\n]+>$")
_SENTENCE_END = re.compile(r"[.!?。！？]$")


@dataclass(frozen=True)
class Body:
    """One message body, read.

    ``kind`` is ``text`` (words, maybe with a file), ``media`` (a placeholder
    for a file not exported), ``system`` (a notice WhatsApp wrote), or
    ``deleted``; only ``text`` becomes a message.
    """

    kind: str
    text: str = ""
    attachment: str | None = None
    edited: bool = False


def read(lines: list[str]) -> Body:
    """A body from its lines as exported (the first still carrying its marks)."""
    text = "\n".join(lines).rstrip()
    edited = False
    mark = _EDITED.search(text) or _EDITED_MARKED.search(text)
    if mark and text[: mark.start()].strip(_BIDI + " "):
        text, edited = text[: mark.start()], True
    first, _, tail = text.partition("\n")
    marked = first.lstrip(" ").startswith(_LRM)
    plain = first.strip(_BIDI + " ")
    attached = _ATTACHED.match(plain) or _file_attached(plain)
    if attached is not None:
        return Body("text", tail, attached.group("file").strip(), edited)
    whole = text.strip(_BIDI + " ")
    if is_deleted_notice(whole):
        return Body("deleted")
    if marked:
        # iOS: what WhatsApp wrote. A short phrase with no full stop is a
        # media placeholder ("Bild weggelassen", "画像は含まれていません");
        # a sentence is a system notice.
        short = len(plain.split()) <= 3 and not _SENTENCE_END.search(plain) and not tail
        return Body("media" if short or _MEDIA_WORDS.search(plain) else "system")
    if not tail and _BRACKETED.match(plain):
        return Body("media")
    if plain.lower() == "null" and not tail:  # a view-once photo or video
        return Body("text", "", "view-once media", edited)
    return Body("text", (first.strip(_BIDI) + text[len(first):]).rstrip(), None, edited)


def _file_attached(line: str) -> re.Match | None:
    match = _FILE_ATTACHED.match(line)
    if match is None:
        return None
    if " " in match.group("file") and not _KNOWN_FILE_LABELS.match(match.group("label").strip()):
        return None
    return match
