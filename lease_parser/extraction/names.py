"""Legal names of parties: where a name ends, what is not a name, when two are one party.

Shared by the parties extractor; kept apart because the grammar of a legal name is its own
problem: "HALE BROTHERS, LLC d/b/a HALE & COMPANY", "Smith, Jones & Partners LLP, a New
York limited liability partnership", "ACME INC., JANE DOE" (a guarantor after the name).
"""

from __future__ import annotations

import re

from lease_parser.extraction.kind import PLACEHOLDER

SUB_LANDLORD = r"Sub-?landlord|Sub-?lessor|Sublandlord|Sublessor"
SUB_TENANT = r"Sub-?tenant|Sub-?lessee|Subtenant|Sublessee"
# The words leases name the parties by. Residential leases made with property-management
# software say "Owner/Agent", "Landlord/Owner", "Resident(s)", "Tenant(s)"; translated
# leases "Leaser". Longer forms first: an alternation takes the first that matches.
LANDLORD_WORDS = (
    r"Landlord/(?:Owner|Agent)|Owner/Agent|Lessor/Agent|Landlords?\(s\)|Owners?\(s\)|Landlord|"
    r"Lessor|Leaser|Owner"
)
TENANT_WORDS = (
    r"Tenants?\(s\)|Residents?\(s\)|Lessees?\(s\)|Residents?|Tenants?|Lessees?|Under-?tenant"
)
ROLE = rf"{SUB_LANDLORD}|{SUB_TENANT}|{LANDLORD_WORDS}|{TENANT_WORDS}"
# "LANDLORD:", "Tenant(s):", "Owner/Agent :": a role label, which no party's name holds.
ROLE_LABEL = re.compile(rf"(?i)(?<![\w'/])(?:{ROLE})\s*:")

# Where an entity's description begins: ", a Delaware corporation", ", having an address".
_DESCRIPTION = re.compile(
    r"""(?ix)
    ,?\s+(?:a|an)\s+(?:[\w.-]+\s+){0,5}?(?:corporation|company|partnership|trust|association|
        individual|limited|general|public|municipal|body|entity|national|banking|sole|
        organization|cooperative|llc|l\.l\.c\.|lp|l\.p\.|reit)\b
    |,?\s+(?:having|whose|with\s+(?:its|an|a)\s|located|residing|doing\s+business|acting|
        by\s+and\s+through|as\s+(?:landlord|tenant|lessor|lessee|sub|tenants\s+in|its|the|
        successor|trustee|agent|nominee)|organized|authorized|formerly|now\s+known)\b
    |,?\s+d/?b/?a\b|,?\s+f/?k/?a\b
    |,\s+of\s+(?:\d|suite|the\s+(?:city|county|state))
    |,\s+\d{1,6}\s+[A-Z]
    |(?<=\S)\s+\d{2,6}\s+(?-i:(?:[NSEW]\.?\s+)?[A-Z][a-z]+)
    |\s+By\b\s*:?\s*(?:/s/|_|[A-Z])|\s*/s/
    |,?\s+(?:c/o|care\s+of|attn\.?|attention)(?=\W)
    |,?\s+(?:incorporated|registered|established|formed)(?:\s+and\s+registered)?\s+(?:in|under)\b
    |\s+of\s+(?:\d|flat\b|unit\b|apartment\b|suite\b)
    |\s+and\s+(?:us|we|you)\b|\s*;
    |,?\s+p\.?\s?o\.?\s+box\b
    |,?\s+(?:mailing\s+)?(?:address|phone|tel|telephone|e-?mail|fax|mobile|cell)\s*(?:no\.?\s*)?:
    |\s*\[|\s*\((?![\w.\ ]{1,20}\)\s*(?:ltd|limited|llc|inc|plc|pty|gmbh|corp|corporation|
        company|l\.?p|s\.?a)\b(?!\s+(?:liability|partnership)))""",
)
LEGAL_SUFFIX = re.compile(
    r"(?i)^\s*(?:inc|incorporated|llc|l\.\s?l\.\s?c|lp|l\.\s?p|llp|l\.\s?l\.\s?p|ltd|limited|"
    r"corp|corporation|co|company|plc|pllc|p\.?c|n\.?a|pty\.?\s+ltd|s\.?a|gmbh|ag)\.?\s*$"
)
_ENDS_IN_LEGAL_FORM = re.compile(
    r"(?i)\b(?:inc|incorporated|llc|l\.\s?l\.\s?c|lp|l\.\s?p|llp|l\.\s?l\.\s?p|ltd|limited|corp|"
    r"corporation|company|plc|pllc|pty\.?\s+ltd)\.?\s*$"
)
_SUFFIX_THEN_NUMBER = re.compile(r"(?i)\b(?:llc|inc|company|corporation|ltd|l\.p|corp)\.?(?=\s+\d)")
# A legal form closes a name: what follows is another party (two columns of a signature
# block read as one line: "ACME LLC BETA INC."), a sentence ("... LLC You've agreed") or,
# after "of", an address ("Ben-Or Ltd. Of Rehov ..."). Words that continue a legal form
# ("Limited Partnership", "LLC Series A") do not.
_CLOSING_FORM = re.compile(
    r"\b(?i:llc|l\.\s?l\.\s?c|inc|ltd|limited|l\.\s?p|lp|llp|plc|corp|corporation|pty\.?\s+ltd)\.?"
    r"(?=\s+(?:(?i:of)\s|[A-Z0-9]))"
)
_CONTINUES_FORM = re.compile(
    r"(?i)\s+(?:(?:partnership|liability|company|co|corporation|limited|ltd|inc|llc|l\.l\.c|"
    r"lp|llp|plc|pty|trust|series|fund|and|d/?b/?a)\b|&)"
)
_NOT_A_NAME = re.compile(
    rf"(?i)^(?:as\s+(?:listed|set|stated|defined|shown)|see\b|same\b|per\b|refer|n/?a\b|none\b|"
    rf"tbd\b|to\s+be\b|the\s+(?:party|parties|person|undersigned)\b|(?:{ROLE})\b\s*$)"
)


def legal_name(text: str) -> str | None:
    """The legal name at the start of ``text``; None for blanks and placeholders."""
    text = text.strip(" ,;:-\ufffe\"'")
    text = re.sub(r"^_+|_+$", "", text).strip()
    if not text or PLACEHOLDER.search(text[:80]):
        return None
    role = ROLE_LABEL.search(text)
    if role is not None and role.start() == 0:
        return None  # "LANDLORD: ACME LLC" under another label: whose name is it?
    cut = _DESCRIPTION.search(text)
    name = text[: cut.start()] if cut else text
    if role is not None:
        name = name[: role.start()]
    then_number = _SUFFIX_THEN_NUMBER.search(name)
    if then_number:
        name = name[: then_number.end()]
    name = _close_at_legal_form(name)
    # "Smith, Jones & Partners LLP" ends in a legal form: keep it whole. Otherwise keep
    # ", LLC" / ", Inc." style chunks and stop at anything else ("ACME INC., JANE DOE").
    if not _ENDS_IN_LEGAL_FORM.search(name):
        chunks = name.split(",")
        kept = [chunks[0]]
        for chunk in chunks[1:]:
            if not LEGAL_SUFFIX.match(chunk):
                break
            kept.append(chunk)
        name = ",".join(kept)
    name = re.sub(r"(?i)^(?:the\s+)", "", " ".join(name.split())).strip(" ,;:\"'")
    if not (2 <= len(name) <= 100) or not re.search(r"[A-Za-z]{2}", name) or not name[0].isalnum():
        return None
    if _NOT_A_NAME.match(name) or not looks_like_name(name):
        return None
    return name


def _close_at_legal_form(name: str) -> str:
    for form in _CLOSING_FORM.finditer(name):
        if not _CONTINUES_FORM.match(name, form.end()):
            return name[: form.end()]
    return name


_CONNECTORS = frozenset({"of", "and", "the", "de", "van", "von", "&", "at", "y", "for", "in"})
_DOCUMENT_WORDS = re.compile(
    r"(?i)\b(?:article|section|exhibit|schedule|page|lease|agreement|premises|witness|whereof|"
    r"therefore|hereby|hereof|initials|signature|date|address|notice|contents)\b"
)


def looks_like_name(name: str) -> bool:
    """A party name, not an address, a heading or a sentence fragment."""
    words = name.replace(",", " ").split()
    if not words or len(words) > 12:
        return False
    if all(re.fullmatch(rf"(?i){ROLE}|and|&|or|the", w) for w in words):
        return False
    suffixed = re.search(
        r"(?i)\b(?:llc|l\.l\.c|inc|l\.p|lp|ltd|corp|corporation|company|co)\b\.?$", name
    )
    if name[0].isdigit() and not suffixed:
        return False
    if any(w[0].islower() and w.lower() not in _CONNECTORS for w in words):
        return False
    if len(words) == 1 and not (name.isupper() or re.search(r"[\d/&.-]", name)):
        return False
    return not (_DOCUMENT_WORDS.search(name) and not suffixed)


def same_party(a: str, b: str) -> bool:
    """Two spellings of one party: equal letters and digits once a legal suffix is dropped,
    or the same words but for a typist's slip in a long one.

    A joint name ("A, L.L.C. and B, L.L.C.") is the same party as either of its members:
    a cover page or signature block naming one co-landlord supports the joint name.
    """

    def norm(s: str) -> str:
        return "".join(norm_words(s))

    if norm(a) == norm(b) or _one_typo_apart(norm_words(a), norm_words(b)):
        return True
    parts_a, parts_b = a.split(" and "), b.split(" and ")
    if len(parts_a) == len(parts_b):
        return False
    return any(norm(x) == norm(y) for x in parts_a for y in parts_b)


def norm_words(name: str) -> list[str]:
    """A name's words, case-folded, without punctuation or a trailing legal suffix."""
    name = re.sub(
        r"(?i)[,.\s]+(?:inc|llc|l\.?l\.?c|l\.?p|ltd|corp|corporation|co|company)\.?$", "", name
    )
    return re.findall(r"[a-z0-9]+", name.lower())


# A word this long with one slip of the typist ("ENVIORNMENT") is the same word; a shorter
# one differing by a letter may be another name ("Fund I" and "Fund II", "Park" and "Mark").
TYPO_WORD = 6


def _one_typo_apart(a: list[str], b: list[str]) -> bool:
    """The same words but one, which differs by two adjacent letters swapped or one letter
    changed, in a long word of letters only: one name, typed twice."""
    if len(a) != len(b) or len(a) < 2:
        return False
    differing = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if len(differing) != 1:
        return False
    x, y = differing[0]
    if len(x) != len(y) or len(x) < TYPO_WORD or not (x.isalpha() and y.isalpha()):
        return False
    at = [i for i, (p, q) in enumerate(zip(x, y, strict=True)) if p != q]
    swapped = len(at) == 2 and at[1] == at[0] + 1 and x[at[0]] == y[at[1]] and x[at[1]] == y[at[0]]
    return len(at) == 1 or swapped


def inside_longer_name(text: str, match: re.Match[str]) -> bool:
    """ "Smith" inside "Smith, Jones & Partners LLP" or "Riverside Smith Co." is not "Smith"."""
    after = text[match.end() : match.end() + 30]
    before = text[max(0, match.start() - 30) : match.start()]
    continues = re.match(r"(?:\s*,)?\s*(?:&|and\s)?\s*(?-i:[A-Z][A-Za-z]+)", after)
    if continues and not LEGAL_SUFFIX.match(after[: continues.end()].lstrip(", ")):
        word = re.search(r"[A-Za-z]+$", after[: continues.end()])
        if word and word.group(0).lower() not in _SENTENCE_WORDS:
            return True
    preceded = re.search(r"(?-i:[A-Z][A-Za-z]+)\s*$", before)
    return bool(preceded and preceded.group(0).strip().lower() not in _SENTENCE_WORDS)


# Capitalised words that follow or precede a name without being part of it.
_SENTENCE_WORDS = frozenset(
    "by the and as a an to of for in on at with shall will may landlord tenant lessor lessee "
    "sublessor sublessee sublandlord subtenant name title its dated date between".split()
)
