"""The shape of a postal address, wherever it is stated: street, unit, locality, postcode.

A street is a number and a street name ("310 Ferry Street E", "112-114 Alder
Avenue", "900 Route 9"); an English address may name a street without a number when a
postcode follows it ("Mill Lane, Leeds LS2 7QT"). What a lease states with the street
belongs to the address line: before it, a unit and a building in a comma-separated run
("Apartment No. 12, 40 Larch Drive", "Room C, Beacon Court, 14 Quay Way", "Part 3rd
Floor, Lantern House, 2-4 Rowan Circus", "12b on the first floor of 12 Elm
Drive"); after it, a suite or floor ("- Unit 6", ", 4th Floor", ", Level 5", "Suites 213
and 214"), the city (abbreviations included: "Ft. Lauderdale", "St. Louis"), the state and
the ZIP code, or an English or Canadian postcode after one to four localities ("Kings
Park, Wantage, Oxfordshire, OX12 9AA"; "Ottawa, Ontario K1P 5G4"). ``street_key`` spells
a street one way, so that statements of one street group together. Whether an address is
the premises is premises.py's question.
"""

from __future__ import annotations

import re

_STREET_TYPES = (
    r"Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Drive|Dr|Lane|Ln|Way|Court|Ct|Place|Pl|"
    r"Parkway|Pkwy|Plaza|Circle|Cir|Terrace|Ter|Trail|Square|Sq|Pike|Row|Alley|Expressway|"
    r"Freeway|Turnpike|Highway|Hwy|Crescent|Close|Parade|Esplanade|Circus|Gardens|Mews"
)
_DIRECTION = r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.?"
# The first word after the number is never a bare number ("IN 47904 1031 Hartford Street"
# is a postcode followed by the next address, not "47904 1031 Hartford Street").
STREET = re.compile(
    rf"""(?<![\w$.,-])(?P<number>\d{{1,6}}(?:\s*-\s*\d{{1,6}}(?![\w]))?)(?:\s+|\s*-\s*(?=\d))
    (?:
      (?:Highway|Hwy|Route|Rte|State\s+Road|County\s+Road|U\.?S\.?)\s+\d{{1,4}}\b
      |(?:{_DIRECTION}\s+)?(?!\d+\s)(?:(?!\d+\.\d)(?:[A-Z0-9][\w'.-]*|of|the)\s+){{0,4}}
        (?:{_STREET_TYPES})\b\.?
        (?:,?\s+(?:(?:NE|NW|SE|SW|[NSEW])\.?(?![\w])|(?:North|South|East|West)(?=\s*[,(\d])))?
    )""",
    re.VERBOSE,
)
# An English street named without a number: only an address when a postcode follows.
NAMED_STREET = re.compile(
    rf"(?<![\w$.,-])(?:(?!The\b)[A-Z][a-z]+\s+){{1,3}}(?:{_STREET_TYPES})\b(?!\s*\d)"
)
STATES = (
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|"
    "Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|"
    "Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|"
    "New\\s+Hampshire|New\\s+Jersey|New\\s+Mexico|New\\s+York|North\\s+Carolina|North\\s+Dakota|"
    "Ohio|Oklahoma|Oregon|Pennsylvania|Rhode\\s+Island|South\\s+Carolina|South\\s+Dakota|"
    "Tennessee|Texas|Utah|Vermont|Virginia|Washington|West\\s+Virginia|Wisconsin|Wyoming|"
    "District\\s+of\\s+Columbia|Victoria|New\\s+South\\s+Wales|Queensland|Tasmania|"
    "South\\s+Australia|Western\\s+Australia|Ontario|Quebec|British\\s+Columbia|Alberta|"
    "Manitoba|Saskatchewan|Nova\\s+Scotia|New\\s+Brunswick|"
    "A[LKZR]|C[AOT]|D[EC]|FL|GA|HI|I[DLNA]|K[SY]|LA|M[EDAINSOT]|N[EVHJMYCD]|O[HKR]|PA|RI|"
    "S[CD]|T[NX]|UT|V[TA]|W[AVIY]|VIC|NSW|QLD|ON|QC|BC|AB|MB|SK|NS|NB"
)
_NOT_CITY = (
    r"(?:Landlord|Tenant|Lessor|Lessee|Sublessor|Sublessee|Building|Premises|Suite|Floor|"
    rf"Exhibit|Attention|Attn|Telephone|Phone|The|This|Such|Said|County|For|And|Unit|"
    rf"{_STREET_TYPES})\b"
)
# "Ft. Lauderdale", "St. Louis", "Mt Pleasant": an abbreviation's full stop is inside the
# city's name, not the end of the address.
_CITY = (
    rf"(?:(?:Ft|Mt|Pt|St|Ste)\.\s*|(?:Ft|Mt)\s+)?(?!{_NOT_CITY})(?![A-Z][a-z]+\s+County\b)"
    r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?(?:\s+(?!County\b)[A-Z][a-z]+){0,2}"
)
UK_POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}"
CA_POSTCODE = r"[A-Z]\d[A-Z]\s?\d[A-Z]\d"
_ORDINAL = (
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    r"ground|lower\s+ground|upper\s+ground|basement|mezzanine|top|\d{1,2}(?:st|nd|rd|th))"
)
FLOOR = (
    rf"(?i:(?:part\s+(?:of\s+)?(?:the\s+)?)?{_ORDINAL}\s+floors?|floor\s+\d{{1,2}})\b"
    r"|\bLevel\s+\d{1,2}\b"
)
_UNIT_ID = r"(?:[A-Z0-9-]*\d[A-Z0-9-]*|[A-Z]{1,2})(?![\w'])"
# "Suite 201", "Apt. 4B", "Apartment No. 12", "Unit C", "#12", "Suites 213 and 214",
# "B210:RoomC" (a block's code, then the room).
UNIT = (
    r"(?:(?:[A-Z]{0,3}\d{1,4}[A-Z]?\s*:\s*)?"
    r"(?:Suites?|Ste\.?|Units?|Rooms?|Apt\.?|Apartment|Flat|Studio|Lot|Space|Bldg\.?|Building)"
    rf"\s*(?:No\s?\.?\s*|\#\s*)?{_UNIT_ID}"
    rf"(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)[A-Z0-9-]*\d[A-Z0-9-]*(?![\w']))*"
    rf"|\#\s*{_UNIT_ID})"
)
# A building's name: capitalised words ending in a building word ("Beacon Court", "Lantern
# House", "The Harrow Building").
_ROLE = r"(?:Landlord|Tenant|Lessor|Lessee|Sublandlord|Subtenant|Sublessor|Sublessee|Owner|Agent)"
BUILDING_NAME = (
    rf"(?:The\s+)?(?:(?!{_ROLE})[A-Z][\w'&-]*\s+){{1,4}}"
    r"(?:House|Court|Building|Tower|Towers|Centre|Center|Plaza|Hall|Lodge|Mansions|Apartments|"
    r"Residences?|Chambers|Exchange)\b"
)
# A form's caption under the blank a part was typed into: "755 Dublin Drive (street
# address) in Pendleton (city), Indiana, 46064 (zip code)".
_CAPTION = r"(?:\s*\((?:street\s+)?address\)|\s*\((?:city|state|county|zip(?:\s+code)?)\))?"
TAIL = re.compile(
    rf"""(?P<suite>(?:(?:,?\s*|\s+-\s+)(?:{UNIT}|{FLOOR})){{0,2}}){_CAPTION}
    (?:
      (?P<localities>,?\s*{_CITY}(?:,?\s+{_CITY}){{0,3}}),?\s+(?P<postcode>{UK_POSTCODE})(?![\w])
    |
      (?:,?\s*(?:in\s+(?:the\s+)?)?(?:City\s+of\s+|Town(?:ship)?\s+of\s+)?(?P<city>{_CITY}))?
      {_CAPTION}
      (?P<county>,?\s*(?:County\s+of\s+[A-Z][a-z]+|[A-Z][a-z]+\s+County))?
      (?:,?\s*(?:(?:State|Commonwealth|Province)\s+of\s+)?(?P<state>(?:{STATES}))\b\.?)?
      {_CAPTION}
      (?:,?\s*(?P<zip>\d{{5}}(?:-\d{{4}})?|\d{{4}}|{CA_POSTCODE})(?![\w]){_CAPTION})?
    )""",
    re.VERBOSE,
)
# What may precede a street in its address line: a unit, a floor or a building, joined to
# the next part by a comma or by "on the ... floor of".
_PREFIX_PART = rf"(?<![\w'])(?:{UNIT}|{FLOOR}|{BUILDING_NAME}|\d{{1,4}}[A-Za-z](?![\w]))"
_PREFIX_JOIN = r"(?:\s*,\s*(?:at\s+)?|\s+(?:on|of|at|in)\s+(?:the\s+)?)"
PREFIX = re.compile(rf"(?:{_PREFIX_PART}{_PREFIX_JOIN}){{1,3}}$")
_PREFIX_WINDOW = 90


def prefix_start(text: str, street_start: int) -> int:
    """Where the unit, floor and building stated just before a street begin (the street's
    own start when none is)."""
    # The leftmost run that reaches the street.
    match = PREFIX.search(text, max(0, street_start - _PREFIX_WINDOW), street_start)
    return match.start() if match else street_start


def prefix_text(text: str) -> str:
    """A prefix as address parts: "85b on the first floor of " → "85b, first floor"."""
    joined = re.sub(r"\s+(?:on|of|at|in)(?:\s+the)?(?:\s+|$)", ", ", text.strip())
    return re.sub(r"\s*,\s*", ", ", joined).strip(" ,")


_ABBREVIATIONS = {
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "street": "st",
    "avenue": "ave",
    "road": "rd",
    "boulevard": "blvd",
    "drive": "dr",
    "lane": "ln",
    "court": "ct",
    "place": "pl",
    "parkway": "pkwy",
    "highway": "hwy",
    "suite": "ste",
}


def street_key(line: str) -> str:
    """The street part of an address line, spelled one way ("1450 North Larch Street" and
    "2430 N. Halsted St." share a key)."""
    match = STREET.search(line) or NAMED_STREET.search(line)
    words = re.findall(r"[a-z0-9]+", (match.group(0) if match else line).lower())
    return " ".join(_ABBREVIATIONS.get(w, w) for w in words)


def same_street(a: str, b: str) -> bool:
    return street_key(a) == street_key(b)


_STATE_CODES = dict(
    pair.split(":")
    for pair in (
        "alabama:al alaska:ak arizona:az arkansas:ar california:ca colorado:co connecticut:ct "
        "delaware:de florida:fl georgia:ga hawaii:hi idaho:id illinois:il indiana:in iowa:ia "
        "kansas:ks kentucky:ky louisiana:la maine:me maryland:md massachusetts:ma michigan:mi "
        "minnesota:mn mississippi:ms missouri:mo montana:mt nebraska:ne nevada:nv "
        "newhampshire:nh newjersey:nj newmexico:nm newyork:ny northcarolina:nc northdakota:nd "
        "ohio:oh oklahoma:ok oregon:or pennsylvania:pa rhodeisland:ri southcarolina:sc "
        "southdakota:sd tennessee:tn texas:tx utah:ut vermont:vt virginia:va washington:wa "
        "westvirginia:wv wisconsin:wi wyoming:wy districtofcolumbia:dc victoria:vic "
        "newsouthwales:nsw queensland:qld"
    ).split()
)


def part_key(part: str) -> str:
    """One spelling of an address part: "Texas" and "TX" are one state."""
    key = re.sub(r"[^a-z0-9]", "", part.lower())
    return _STATE_CODES.get(key, key)
