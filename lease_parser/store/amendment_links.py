"""Amendment links in the canonical store: made when a document is finished, or by a person.

When the pipeline finishes an amendment, it is compared with the leases in the store dated
as it says its lease is (links.py decides; no other lease can match) and its link recorded:
``linked`` to its lease, or ``needs_review`` with the candidates and why. When it finishes
a lease, the amendments still waiting are compared again: an amendment may arrive before
its lease. A person's link or "not in the
store" (``method`` reviewer) is never changed by these automatic passes;
``lease-parser amendments relink`` runs them again by hand (after a reviewer corrected
what an amendment states, or if linking failed when the document finished).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from lease_parser.errors import LinkRefused, StorageUnavailable
from lease_parser.portfolio.links import Identity, LinkDecision, decide_link
from lease_parser.store.database import (
    AmendmentLinkRow,
    DocumentRow,
    DocumentState,
    LinkState,
    Store,
    utcnow,
)

LEASE_KINDS = frozenset({"lease", "sublease"})
AMENDMENT_KIND = "amendment"
# States whose documents can be linked: a dead document is not an abstraction.
LINKABLE_STATES = (DocumentState.COMMITTED, DocumentState.REVIEW)
AUTO = "auto"
REVIEWER = "reviewer"


@dataclass(frozen=True)
class LinkView:
    """An amendment's link as commands show it."""

    amendment: DocumentRow
    link: AmendmentLinkRow
    lease: DocumentRow | None


def _leases(store: Store, lease_date: str) -> list[Identity]:
    """The leases dated ``lease_date``: no other can match (links.py), and the database
    finds them by the date inside the stored JSON (json_extract on SQLite, ->> on
    PostgreSQL) without loading every abstraction."""
    with store.session() as s:
        rows = s.execute(
            select(DocumentRow.doc_hash, DocumentRow.fields).where(
                DocumentRow.kind.in_(LEASE_KINDS),
                DocumentRow.state.in_(LINKABLE_STATES),
                DocumentRow.fields["lease_date"]["value"].as_string() == lease_date,
            )
        ).all()
    return [Identity.of_lease(doc_hash, fields or {}) for doc_hash, fields in rows]


def _record(
    store: Store,
    amendment_hash: str,
    decision: LinkDecision,
    method: str,
    actor: str | None,
    state: LinkState | None = None,
) -> AmendmentLinkRow:
    """Insert or update the amendment's one link row (two workers may race to insert it:
    the loser updates the winner's row)."""
    if state is None:
        state = LinkState.LINKED if decision.lease_hash else LinkState.NEEDS_REVIEW
    for _attempt in range(3):
        try:
            return _upsert(store, amendment_hash, decision, method, actor, state)
        except IntegrityError:
            continue
    raise StorageUnavailable(f"could not record the link of {amendment_hash}")


def _upsert(
    store: Store,
    amendment_hash: str,
    decision: LinkDecision,
    method: str,
    actor: str | None,
    state: LinkState,
) -> AmendmentLinkRow:
    with store.session() as s:
        row = s.scalar(
            select(AmendmentLinkRow).where(AmendmentLinkRow.amendment_hash == amendment_hash)
        )
        if row is None:
            row = AmendmentLinkRow(amendment_hash=amendment_hash)
            s.add(row)
        row.lease_hash = decision.lease_hash
        row.state = state
        row.method = method
        row.confidence = decision.confidence
        row.evidence = decision.evidence()
        row.actor = actor
        row.updated_at = utcnow()
        s.flush()
        s.expunge(row)
        return row


def link_of(store: Store, amendment_hash: str) -> AmendmentLinkRow | None:
    with store.session() as s:
        return s.scalar(
            select(AmendmentLinkRow).where(AmendmentLinkRow.amendment_hash == amendment_hash)
        )


def link_amendment(store: Store, amendment: DocumentRow, gate: float) -> AmendmentLinkRow | None:
    """Decide and record an amendment's link, unless a person already decided it."""
    existing = link_of(store, amendment.doc_hash)
    if existing is not None and existing.method == REVIEWER:
        return existing
    identity = Identity.of_amendment(amendment.doc_hash, amendment.fields or {})
    dated = identity.lease_date.value if identity.lease_date else None
    decision = decide_link(identity, _leases(store, str(dated)) if dated else [], gate)
    return _record(store, amendment.doc_hash, decision, AUTO, "pipeline")


def waiting_amendments(store: Store) -> list[DocumentRow]:
    """Amendments whose automatic link found no lease yet (or none at all)."""
    with store.session() as s:
        linked = select(AmendmentLinkRow.amendment_hash).where(
            (AmendmentLinkRow.state == LinkState.LINKED) | (AmendmentLinkRow.method == REVIEWER)
        )
        query = select(DocumentRow).where(
            DocumentRow.kind == AMENDMENT_KIND,
            DocumentRow.state.in_(LINKABLE_STATES),
            DocumentRow.doc_hash.not_in(linked),
        )
        return list(s.scalars(query))


def after_finish(store: Store, doc_hash: str, gate: float) -> None:
    """Link a finished amendment; a finished lease may be the one waiting amendments amend."""
    row = store.document(doc_hash)
    if row is None or row.state not in LINKABLE_STATES:
        return
    if row.kind == AMENDMENT_KIND:
        link_amendment(store, row, gate)
    elif row.kind in LEASE_KINDS:
        for amendment in waiting_amendments(store):
            link_amendment(store, amendment, gate)


def relink(store: Store, gate: float, hashes: Iterable[str] = ()) -> list[AmendmentLinkRow]:
    """Run automatic linking again for ``hashes`` (default: every amendment not linked)."""
    rows = [store.document(h) for h in hashes] if hashes else waiting_amendments(store)
    out = []
    for row in rows:
        if row is None or row.kind != AMENDMENT_KIND:
            continue
        link = link_amendment(store, row, gate)
        if link is not None:
            out.append(link)
    return out


def link_by_reviewer(
    store: Store, amendment_hash: str, lease_hash: str | None, reviewer: str
) -> AmendmentLinkRow:
    """A person links an amendment to its lease (or says it is not in the store)."""
    amendment = store.document(amendment_hash)
    if amendment is None or amendment.kind != AMENDMENT_KIND:
        raise LinkRefused(f"{amendment_hash} is not an amendment in the store", key=amendment_hash)
    if lease_hash is not None:
        lease = store.document(lease_hash)
        if lease is None or lease.kind not in LEASE_KINDS:
            raise LinkRefused(f"{lease_hash} is not a lease in the store", key=lease_hash)
    why = "linked by a person" if lease_hash else "a person found its lease is not in the store"
    decision = LinkDecision(lease_hash, 1.0 if lease_hash else 0.0, why)
    state = LinkState.LINKED if lease_hash else LinkState.UNLINKED
    return _record(store, amendment_hash, decision, REVIEWER, reviewer, state)


def links(store: Store, state: str | None = None) -> list[LinkView]:
    """Every amendment link (or those in ``state``), newest first."""
    with store.session() as s:
        query = select(AmendmentLinkRow).order_by(AmendmentLinkRow.updated_at.desc())
        if state:
            query = query.where(AmendmentLinkRow.state == state)
        rows = list(s.scalars(query))
    out = []
    for link in rows:
        amendment = store.document(link.amendment_hash)
        lease = store.document(link.lease_hash) if link.lease_hash else None
        if amendment is not None:
            out.append(LinkView(amendment, link, lease))
    return out


def linked_amendments(store: Store) -> dict[str, list[DocumentRow]]:
    """Every lease's linked amendments (lease hash → documents), read in one query."""
    with store.session() as s:
        pairs = s.execute(
            select(AmendmentLinkRow.lease_hash, DocumentRow)
            .join(DocumentRow, DocumentRow.doc_hash == AmendmentLinkRow.amendment_hash)
            .where(AmendmentLinkRow.state == LinkState.LINKED)
        ).all()
    out: dict[str, list[DocumentRow]] = {}
    for lease_hash, amendment in pairs:
        out.setdefault(str(lease_hash), []).append(amendment)
    return out
