"""Coolness Under Fire's models, by document kind, and the typed results their rules return."""

from rulepress.games.cuf.models.cuf import CheckRoll, CufRating, SkillCheck, ThreatThreshold
from rulepress.games.cuf.models.threat import TcLadder, TcSource

__all__ = ["CheckRoll", "CufRating", "SkillCheck", "TcLadder", "TcSource", "ThreatThreshold"]
