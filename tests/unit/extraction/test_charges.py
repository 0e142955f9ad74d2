"""CAM per month and the tenant's share as a percent."""

from __future__ import annotations

from decimal import Decimal

import pytest

from lease_parser.extraction.financials import extract_financials
from tests.unit.extraction.lease_text import by_name, document


def field(name: str, text: str) -> str | None:
    raw = by_name(extract_financials(document(text))).get(name)
    return None if raw is None else raw.value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Tenant shall make payments to Landlord monthly in the amount of One Thousand Two "
            "Hundred and 50/100 Dollars ($1,200.50), which represents Landlord's good faith "
            "estimate of Tenant's pro rata share of Common Area Expense.",
            "1200.50",
        ),
        (
            "Operating expenses for the year 2024 are estimated at $1.15 per square foot "
            "($3,126.50 per month).",
            "3126.50",
        ),
        ("Estimated CAM charges: $850.00 per month.", "850.00"),
        (
            "Item 10 Outgoings. The Landlord may pre-estimate building operating expenses and "
            "collect an equal part of them each month. For the first year of the lease, the "
            "monthly payment on account of such expenses is as follows (save for Land Tax): "
            "Council Rates: $2,400.00 Water Rates: $600.00 Insurance: $1,200.00 $4,200.00 being "
            "monthly payments of: $350.00",
            "350.00",
        ),
    ],
)
def test_cam(text: str, expected: str) -> None:
    assert field("cam_monthly", text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Tenant's share of Operating Expenses shall not exceed $16,000.00 per year.",
        "The first installment of Base Rent and the estimated monthly Operating Expenses in the "
        "aggregate amount of $50,000.00 shall be due on execution.",
        "Tenant shall pay Base Rent of $5,000.00 per month.",
    ],
)
def test_not_cam(text: str) -> None:
    assert field("cam_monthly", text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tenant's Proportionate Share: 59.5288%, which is the percentage obtained.", "59.5288"),
        ("Accordingly, Tenant's Pro Rata Share is 24.047% (30,085 rsf / 125,109 rsf).", "24.047"),
        (
            "The Sublessee's Pro Rata Share is estimated in Article 1.4 of the Prime Lease "
            "as 8.92%.",
            "8.92",
        ),
        ("Tenant's pro rata share of Operating Expenses shall be forty percent (40%).", "40"),
        ("Tenant's Pro Rata Share of Building 47.12%", "47.12"),
        ("TENANTS PROPORTIONATE SHARE: 11.25% SECURITY DEPOSIT: $4,000.00", "11.25"),
        ("\u201cTenant\u2019s Share\u201d shall mean 35% of the increases.", "35"),
        (
            "\u201cTenant\u2019s Percentage\u201d shall mean, and is stipulated by the Parties "
            "to be, 19.32%.",
            "19.32",
        ),
        ("Item 10: Tenant\u2019s proportion of Building Outgoings 100%.", "100"),
    ],
)
def test_share(text: str, expected: str) -> None:
    assert field("tenant_share_percent", text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Tenant's pro rata share of Common Area Expense is subject to a maximum increase of five "
        "percent (5%) over the prior year.",
        "The rentable square feet in the Premises and Tenant's Proportionate Share are to be "
        "increased by 1% as a premium.",
        "Tenant's Proportionate Share of Increase in Taxes shall not exceed three percent (3%).",
        "Tenant's share of any increase in Operating Expenses shall be capped at 5%.",
        "Tenant's percentage rent shall be 6% of Gross Sales.",
    ],
)
def test_not_the_share(text: str) -> None:
    assert field("tenant_share_percent", text) is None


def test_a_share_whose_division_checks_out_is_checked() -> None:
    fields = by_name(
        extract_financials(
            document("Tenant's Pro Rata Share is 24.047% (30,085 rsf / 125,109 rsf).")
        )
    )
    assert fields["tenant_share_percent"].evidence["checks"] == 1
    assert "checked by: share = area / building area" in fields["tenant_share_percent"].notes


def test_a_share_whose_division_does_not_check_out_is_not_checked() -> None:
    fields = by_name(
        extract_financials(
            document("Tenant's Pro Rata Share is 25.000% (30,085 rsf / 125,109 rsf).")
        )
    )
    assert Decimal(fields["tenant_share_percent"].value or "") == 25
    assert fields["tenant_share_percent"].evidence["checks"] == 0
