"""Lease language for the benchmark corpus: who, where, how much, and the clauses.

The facts an extractor looks for (parties, term, rent, deposit) are stated the way real
leases state them, words and figures, in a basic-information block and the opening
articles; the bulk of each document is boilerplate drawn from ``CLAUSES``.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import Decimal

PLACES = (
    "Harbor Point", "Maple Grove", "Riverside", "Cedar Ridge", "Lakeshore", "Granite Park",
    "Elm Street", "Copper Hill", "Willow Creek", "Bayfront", "Summit View", "Old Mill",
)  # fmt: skip
ASSETS = ("Owner", "Holdings", "Properties", "Partners", "Realty", "Commons", "Tower")
LANDLORD_FORMS = (
    ("LLC", "limited liability company"),
    ("L.P.", "limited partnership"),
    ("Inc.", "corporation"),
)
TENANT_WORDS = (
    "Bluefin", "Sweet Crumb", "Cascade", "Northwind", "Ironwood", "Brightline", "Redwood",
    "Quarry", "Silverleaf", "Atlas", "Juniper", "Beacon", "Orchard", "Meridian",
)  # fmt: skip
TENANT_TRADES = (
    "Analytics", "Bakery", "Robotics", "Logistics", "Dental Group", "Design Studio",
    "Software", "Fitness", "Legal Services", "Engineering", "Pharmacy", "Coffee Roasters",
)  # fmt: skip
TENANT_FORMS = (("Inc.", "corporation"), ("LLC", "limited liability company"))
STATES = ("Delaware", "Maryland", "Texas", "Ohio", "Washington", "California", "Nevada")
CITIES = (
    ("Baltimore", "Maryland", "21230"), ("Austin", "Texas", "78745"),
    ("Columbus", "Ohio", "43215"), ("Spokane", "Washington", "99201"),
    ("Sacramento", "California", "95814"), ("Reno", "Nevada", "89501"),
)  # fmt: skip
TERMS_MONTHS = (36, 60, 63, 84, 120)

# Boilerplate articles: the bulk of a real lease, and of its parsing and extraction cost.
# {landlord}, {tenant} and {city} vary per document. No dollar amounts here: the facts
# live in the opening articles, as in a real lease, so the expected values are unambiguous.
CLAUSES = (
    ("USE", "Tenant shall use the Premises for general office purposes and for no other "
     "purpose without the prior written consent of {landlord}, which consent may be withheld "
     "in Landlord's sole discretion if the proposed use would violate any exclusive right "
     "granted to another tenant of the Building or any applicable law."),
    ("COMPLIANCE WITH LAWS", "Tenant shall, at its sole cost, comply with all laws, "
     "ordinances, orders, rules and regulations of any governmental authority having "
     "jurisdiction over the Premises in {city}, including those relating to accessibility, "
     "health, safety and the environment, insofar as they relate to Tenant's use."),
    ("ALTERATIONS", "Tenant shall not make any alterations, additions or improvements to the "
     "Premises without first obtaining the written consent of Landlord. All alterations "
     "shall be performed by contractors approved by Landlord, in a good and workmanlike "
     "manner, and in accordance with plans and specifications approved by Landlord."),
    ("REPAIRS AND MAINTENANCE", "Landlord shall maintain the structural portions of the "
     "Building, including the foundation, roof and exterior walls, and the base building "
     "systems. Tenant shall keep the interior of the Premises in good order, condition and "
     "repair, reasonable wear and tear and damage by casualty excepted."),
    ("ASSIGNMENT AND SUBLETTING", "Tenant shall not assign this Lease or sublet all or any "
     "part of the Premises without the prior written consent of {landlord}. Any transfer "
     "without such consent shall be void and shall constitute a default under this Lease. "
     "Consent to one transfer shall not be deemed consent to any subsequent transfer."),
    ("INSURANCE", "Tenant shall maintain throughout the Term commercial general liability "
     "insurance on an occurrence basis, property insurance covering its personal property "
     "and improvements at full replacement cost, and workers' compensation insurance as "
     "required by law, each naming Landlord and its managing agent as additional insureds."),
    ("INDEMNITY", "Except to the extent caused by the negligence or willful misconduct of "
     "Landlord, {tenant} shall indemnify, defend and hold harmless Landlord from all claims, "
     "losses, costs and expenses arising from the use of the Premises by Tenant or its "
     "agents, employees, contractors or invitees."),
    ("CASUALTY", "If the Premises are damaged by fire or other casualty, Landlord shall "
     "restore them with reasonable diligence, subject to the availability of insurance "
     "proceeds. If the restoration cannot reasonably be completed within two hundred seventy "
     "days, either party may terminate this Lease by notice to the other."),
    ("CONDEMNATION", "If the whole of the Premises is taken by eminent domain, this Lease "
     "shall terminate as of the date of taking. If a part is taken and the remainder is not "
     "reasonably suitable for Tenant's business, Tenant may terminate this Lease by written "
     "notice given within sixty days after the taking."),
    ("DEFAULT", "Each of the following is an event of default: failure to pay any amount "
     "when due that continues for five business days after notice; failure to perform any "
     "other covenant that continues for thirty days after notice; and the filing of a "
     "petition in bankruptcy by or against Tenant that is not dismissed within ninety days."),
    ("REMEDIES", "Upon an event of default Landlord may terminate this Lease, re-enter the "
     "Premises by summary proceedings, relet the Premises for the account of Tenant, and "
     "recover all damages permitted by the laws of the state in which {city} is located, "
     "all remedies being cumulative and not exclusive of one another."),
    ("SUBORDINATION", "This Lease is subject and subordinate to every mortgage now or later "
     "encumbering the Building, provided the holder agrees not to disturb Tenant's "
     "possession while Tenant is not in default. Tenant shall deliver an estoppel "
     "certificate within ten business days after Landlord's request."),
    ("QUIET ENJOYMENT", "So long as Tenant pays the rent and performs its covenants, Tenant "
     "shall peaceably and quietly hold and enjoy the Premises for the Term without "
     "hindrance by Landlord or anyone claiming by, through or under Landlord."),
    ("SURRENDER", "At the expiration or earlier termination of the Term, {tenant} shall "
     "surrender the Premises broom clean and in good condition, remove its personal "
     "property and any alterations Landlord designates, and repair all damage caused by "
     "the removal."),
    ("HOLDING OVER", "If Tenant remains in possession after the expiration of the Term "
     "without Landlord's written consent, Tenant shall be a tenant at sufferance and shall "
     "pay for each month of holding over one hundred fifty percent of the rent in effect "
     "immediately before the expiration."),
    ("ACCESS", "Landlord and its agents may enter the Premises at reasonable times on "
     "reasonable prior notice to inspect them, to make repairs, and to show them to "
     "prospective purchasers, lenders and, during the last twelve months of the Term, "
     "prospective tenants."),
    ("HAZARDOUS MATERIALS", "Tenant shall not bring any hazardous materials onto the "
     "Premises except ordinary office supplies in compliance with law, and shall remediate "
     "at its cost any contamination caused by Tenant or its agents during the Term."),
    ("BROKERS", "Each party represents that it has dealt with no broker in connection with "
     "this Lease other than those named in the Basic Lease Information, and shall indemnify "
     "the other against the claims of any other broker claiming through it."),
    ("MISCELLANEOUS", "This Lease is the entire agreement of {landlord} and {tenant} about "
     "its subject matter; it may be amended only in a writing signed by both parties; time "
     "is of the essence; and if any provision is held invalid, the remainder of this Lease "
     "shall not be affected."),
)  # fmt: skip

_ONES = (
    "", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen",
    "Eighteen", "Nineteen",
)  # fmt: skip
_TENS = ("", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety")


@dataclass(frozen=True)
class LeaseFacts:
    """What one generated lease states (and what a correct abstraction reads back)."""

    landlord: str
    landlord_state: str
    landlord_form: str
    tenant: str
    tenant_state: str
    tenant_form: str
    street: str
    city: str
    state: str
    zip_code: str
    lease_date: dt.date
    commencement: dt.date
    term_months: int
    monthly_rent: Decimal
    deposit: Decimal

    @property
    def expiration(self) -> dt.date:
        months = self.commencement.month - 1 + self.term_months
        first_after = dt.date(self.commencement.year + months // 12, months % 12 + 1, 1)
        return first_after - dt.timedelta(days=1)

    @property
    def premises(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip_code}"


def int_in_words(n: int) -> str:
    """1234 → "One Thousand Two Hundred Thirty-Four" (0 ≤ n < 10**9), as leases write it."""
    if n == 0:
        return "Zero"
    parts = []
    for scale, name in ((1_000_000, "Million"), (1000, "Thousand"), (1, "")):
        chunk, n = divmod(n, scale)
        if chunk:
            parts.append(f"{_below_thousand(chunk)} {name}".strip())
    return " ".join(parts)


def _below_thousand(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    out = [f"{_ONES[hundreds]} Hundred"] if hundreds else []
    if rest >= 20:
        tens, ones = divmod(rest, 10)
        out.append(_TENS[tens] + (f"-{_ONES[ones]}" if ones else ""))
    elif rest:
        out.append(_ONES[rest])
    return " ".join(out)


def money_in_words(amount: Decimal) -> str:
    """Decimal("24062.50") → "Twenty-Four Thousand Sixty-Two and 50/100 Dollars ($24,062.50)"."""
    dollars = int(amount)
    cents = int((amount - dollars) * 100)
    return f"{int_in_words(dollars)} and {cents:02d}/100 Dollars (${amount:,.2f})"


def pick_facts(rng: random.Random) -> LeaseFacts:
    landlord_form, landlord_desc = rng.choice(LANDLORD_FORMS)
    tenant_form, tenant_desc = rng.choice(TENANT_FORMS)
    city, state, zip_code = rng.choice(CITIES)
    lease_date = dt.date(2019, 1, 1) + dt.timedelta(days=rng.randrange(7 * 365))
    months_later = rng.randrange(1, 5)
    start_month = lease_date.month - 1 + months_later
    commencement = dt.date(lease_date.year + start_month // 12, start_month % 12 + 1, 1)
    monthly = Decimal(rng.randrange(2_000_00, 80_000_00)) / 100
    return LeaseFacts(
        landlord=f"{rng.choice(PLACES)} {rng.choice(ASSETS)} {landlord_form}",
        landlord_state=rng.choice(STATES),
        landlord_form=landlord_desc,
        tenant=f"{rng.choice(TENANT_WORDS)} {rng.choice(TENANT_TRADES)}, {tenant_form}",
        tenant_state=rng.choice(STATES),
        tenant_form=tenant_desc,
        street=f"{rng.randrange(10, 9900)} {rng.choice(PLACES)} Drive, "
        f"Suite {rng.randrange(100, 999)}",
        city=city,
        state=state,
        zip_code=zip_code,
        lease_date=lease_date,
        commencement=commencement,
        term_months=rng.choice(TERMS_MONTHS),
        monthly_rent=monthly,
        deposit=monthly * rng.choice((1, 2, 3)),
    )


def _long_date(d: dt.date) -> str:
    return f"{d:%B} {d.day}, {d.year}"


def opening_paragraphs(f: LeaseFacts) -> list[tuple[str, str]]:
    """The articles that state the facts, in the phrasing real leases use."""
    months = f"{int_in_words(f.term_months)} ({f.term_months}) months"
    return [
        ("PARTIES", f"THIS LEASE is made and entered into as of {_long_date(f.lease_date)}, by "
         f"and between {f.landlord}, a {f.landlord_state} {f.landlord_form} (\"Landlord\"), "
         f"and {f.tenant}, a {f.tenant_state} {f.tenant_form} (\"Tenant\")."),
        ("PREMISES", "Landlord leases to Tenant, and Tenant leases from Landlord, the premises "
         f"located at {f.premises} (the \"Premises\")."),
        ("TERM", f"The term of this Lease shall be {months.lower()} (the \"Term\"), commencing "
         f"on {_long_date(f.commencement)} (the \"Commencement Date\") and expiring on "
         f"{_long_date(f.expiration)}, unless sooner terminated as provided herein."),
        ("BASE RENT", "Tenant shall pay to Landlord monthly base rent of "
         f"{money_in_words(f.monthly_rent)} in advance on the first day of each calendar "
         "month during the Term, without demand, deduction or set-off."),
        ("SECURITY DEPOSIT", "Upon execution of this Lease, Tenant shall deposit with Landlord "
         f"the sum of {money_in_words(f.deposit)} as a security deposit for the performance "
         "of Tenant's obligations under this Lease."),
    ]  # fmt: skip


def basic_information(f: LeaseFacts) -> list[tuple[str, str]]:
    return [
        ("Date of Lease:", _long_date(f.lease_date)),
        ("Landlord:", f.landlord),
        ("Tenant:", f.tenant),
        ("Premises:", f.premises),
        ("Term:", f"{int_in_words(f.term_months)} ({f.term_months}) months"),
        ("Commencement Date:", _long_date(f.commencement)),
        ("Monthly Base Rent:", f"${f.monthly_rent:,.2f}"),
        ("Security Deposit:", f"${f.deposit:,.2f}"),
    ]


def boilerplate(rng: random.Random, f: LeaseFacts, number: int) -> tuple[str, str]:
    title, body = CLAUSES[rng.randrange(len(CLAUSES))]
    city = f"{f.city}, {f.state}"
    text = body.format(landlord=f.landlord, tenant=f.tenant, city=city)
    return f"{number}. {title}.", text
