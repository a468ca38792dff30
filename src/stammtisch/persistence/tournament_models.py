"""Storage rows of the tournament manager (Muckturniere).

A tournament is stored whole, as the JSON document of
:meth:`stammtisch.tournament.model.Tournament.to_json`, with a row ``version`` for
optimistic concurrency: every change is ``UPDATE … SET version = version + 1 WHERE
version = <the version read>``, written together with its :class:`TournamentAudit` row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from stammtisch.persistence.models import Base, utcnow


class TournamentRow(Base):
    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    owner_user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    #: secret behind the per-table phone links (see ``tournament.service.table_token``)
    table_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentAudit(Base):
    """One accepted change: who, when, the command and its input, the version it made."""

    __tablename__ = "tournament_audit"
    __table_args__ = (UniqueConstraint("tournament_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    who: Mapped[str] = mapped_column(String(80))
    command: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    result_version: Mapped[int] = mapped_column(Integer)
