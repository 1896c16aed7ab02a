"""Coolness Under Fire's models, by document kind, and the typed results their rules return."""

from rulepress.games.cuf.models.cuf import CheckRoll, CufRating, ThreatThreshold
from rulepress.games.cuf.models.threat import TcLadder, TcSource

__all__ = ["CheckRoll", "CufRating", "TcLadder", "TcSource", "ThreatThreshold"]
