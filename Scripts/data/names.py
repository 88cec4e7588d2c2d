"""Name folding shared by the data build and (re-implemented identically) by TunnelGeo's search.

search_key(text): NFKD, drop nonspacing marks, replace a few letters that do not decompose (ø, æ, ß, ł, ...),
lower-case, turn every character that is not a letter or a digit into a space, collapse spaces, trim.
ascii_name(text): the same without lower-casing or punctuation changes, for display.
"""

import unicodedata

SPECIAL = {
    "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ẞ": "SS",
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    "ı": "i", "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T", "ŋ": "n", "Ŋ": "N", "ĸ": "k", "ſ": "s",
    "ʻ": "'", "ʼ": "'", "‘": "'", "’": "'",
}


def strip_marks(text):
    out = []
    for character in unicodedata.normalize("NFKD", text):
        if unicodedata.category(character) == "Mn":
            continue
        out.append(SPECIAL.get(character, character))
    return "".join(out)


def search_key(text):
    folded = strip_marks(text).lower()
    out = []
    for character in folded:
        category = unicodedata.category(character)
        out.append(character if category[0] in "LN" else " ")
    return " ".join("".join(out).split())


def ascii_name(name, alternates):
    """An ASCII spelling of name: its folded form when that is ASCII, else the first ASCII alternate."""
    folded = strip_marks(name)
    if folded.isascii():
        return folded
    for alternate in alternates:
        candidate = strip_marks(alternate)
        if candidate.isascii() and candidate.strip():
            return candidate
    return folded
