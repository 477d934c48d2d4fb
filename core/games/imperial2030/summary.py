"""What ``imperial play`` and ``replay`` say of an Imperial 2030 game beyond its winners and scores
(the plug-in's ``summary`` part, read from the position document)."""

from __future__ import annotations


def summary(played) -> dict:
    """Length in nation turns and rounds, each nation's power points, the nation that ended the game."""
    doc = played.state.to_json()
    return {
        "nation_turns": doc["turn"]["nation_turns"],
        "rounds": doc["turn"]["round"],
        "power_points": {code: nation["power_points"] for code, nation in doc["nations"].items()},
        "ended_by": doc["turn"]["ended_by"],
    }


def summary_rows(summary: dict) -> list[tuple[str, str]]:
    """The text summary's rows after the winners and scores."""
    pp = summary["power_points"]
    ended = summary["ended_by"]
    return [
        ("Ended by", f"{ended} ({pp[ended]} power points)" if ended else "-"),
        ("Nation turns", f"{summary['nation_turns']} in {summary['rounds']} rounds"),
        ("Decisions", f"{summary['decisions']} ({summary['actions']} actions with chance)"),
        ("Power points", ", ".join(f"{code} {points}" for code, points in pp.items())),
    ]
