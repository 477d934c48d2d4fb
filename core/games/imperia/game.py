"""The Imperia game: its configuration (RULES.md §7.4) and the factory of states.

Config keys (docs/imperia.md, "Configuration"): ``game`` ("imperia"), ``players`` (2-4, default 4),
``start_seat`` (a seat, or null: a chance node draws it, G25), ``layout`` ("default", "generated"
or an explicit list of 4 boards ``{"A": [4 rows], "B": [4 rows]}``, G1), ``layout_seed`` and
``layout_counts`` (the generated scheme), ``terrain_override`` (8 strings of F/M/V with C on the
castle: the board is given and not built, for fixtures), ``fortress_min_distance`` (3, or 2: G5),
``castle_ring`` ("touching_12" or "orthogonal_8": G4), ``general_classes`` ({"orth": a, "diag": b},
a + b = 4: G9), ``general_orders`` ("both_orders" or "fixed_types_2_mobilise_2_direct": G18),
``uncovered_tiles_score`` (false or true: G13). Every bad value is a SetupError naming the key.
"""

from __future__ import annotations

from imperial_lab.core.engine import game_config
from imperial_lab.core.errors import SetupError
from imperial_lab.core.jsonio import clip
from imperial_lab.core.games.imperia.board import (CASTLE_MASK, D, GENERALS, RING_ORTHOGONAL, RING_TOUCHING, SPACES, TileSet,
                                      generate_sides, mask, tile_set)
from imperial_lab.core.errors import DataError
from imperial_lab.core.games.imperia.data import check_side
from imperial_lab.core.games.imperia.position import state_from_document
from imperial_lab.core.games.imperia.state import State

CONFIG_KEYS = {"game", "players", "start_seat", "layout", "layout_seed", "layout_counts", "terrain_override",
               "fortress_min_distance", "castle_ring", "general_classes", "general_orders", "uncovered_tiles_score"}
RINGS = {"touching_12": RING_TOUCHING, "orthogonal_8": RING_ORTHOGONAL}
GENERAL_ORDERS = ("both_orders", "fixed_types_2_mobilise_2_direct")


class Imperia:
    """Imperia configured by a dict; makes states and offers the search hooks."""

    name = "imperia"

    def __init__(self, config: dict | None = None):
        config = game_config(config, self.name, CONFIG_KEYS)
        players = config.get("players", 4)
        if type(players) is not int or players not in D.setups:
            raise SetupError(f"config.players: must be 2, 3 or 4, got {clip(players)}")
        self.num_players = players
        self.setup = D.setups[players]
        self.covered = self.setup.covered
        start = config.get("start_seat")
        if start is not None and (type(start) is not int or not 0 <= start < players):
            raise SetupError(f"config.start_seat: must be a seat 0..{players - 1} or null, got {clip(start)}")
        self.start_seat = start
        self.sides, layout = _layout(config)
        self.terrain_override = _terrain(config.get("terrain_override"))
        distance = config.get("fortress_min_distance", 3)
        if type(distance) is not int or distance not in (2, 3):
            raise SetupError(f"config.fortress_min_distance: must be 2 or 3, got {clip(distance)}")
        self.fortress_min_distance = distance
        ring = config.get("castle_ring", "touching_12")
        if not isinstance(ring, str) or ring not in RINGS:
            raise SetupError(f"config.castle_ring: must be one of {sorted(RINGS)}, got {clip(ring)}")
        self.ring_mask = mask(RINGS[ring])
        self.tiles = tiles_of(config)
        uncovered = config.get("uncovered_tiles_score", False)
        if type(uncovered) is not bool:
            raise SetupError(f"config.uncovered_tiles_score: must be true or false, got {clip(uncovered)}")
        self.uncovered_tiles_score = uncovered
        self.config = {**config, "game": self.name, "players": players, "layout": layout}

    def new_initial_state(self):
        state = State(self)
        state.begin()
        return state

    def state_from_json(self, doc: dict, check: bool = True):
        """The state of a position document (``State.to_json``); NotationError if malformed or,
        with ``check``, if it breaks an invariant (``check=False``: scenarios leaving tiles out)."""
        return state_from_document(State(self), doc, check)

    # ----- search hooks (docs/interface.md, "Search hooks") -----

    def resample(self, state, player: int, rng):
        """A state consistent with what ``player`` has seen: every other hand redrawn from that
        player's unseen tiles (hand ∪ pile), without building events."""
        from imperial_lab.core.games.imperia.search import resample
        return resample(state, player, rng)

    def evaluate(self, state) -> list[float]:
        """Each seat's estimated share of the win from the (provisional) scores."""
        from imperial_lab.core.games.imperia.search import evaluate
        return evaluate(state)


def tiles_of(config: dict) -> TileSet:
    """A colour's tiles under the config's ``general_classes`` (G9) and ``general_orders`` (G18);
    SetupError naming the key when either is bad."""
    classes = config.get("general_classes", {"orth": 2, "diag": 2})
    if (not isinstance(classes, dict) or set(classes) != {"orth", "diag"}
            or not all(type(v) is int and v >= 0 for v in classes.values()) or sum(classes.values()) != GENERALS):
        raise SetupError(f"config.general_classes: {{'orth': a, 'diag': b}} with whole numbers a, b >= 0 and "
                         f"a + b = {GENERALS} (the generals of a colour), got {clip(classes)}")
    orders = config.get("general_orders", GENERAL_ORDERS[0])
    if orders not in GENERAL_ORDERS:
        raise SetupError(f"config.general_orders: must be one of {list(GENERAL_ORDERS)}, got {clip(orders)}")
    return tile_set(classes["orth"], orders != GENERAL_ORDERS[0])


def _layout(config: dict):
    """The four boards' sides and the normalised ``layout`` value."""
    layout = config.get("layout", "default")
    if layout == "default":
        if "layout_seed" in config or "layout_counts" in config:
            raise SetupError("config.layout_seed/layout_counts: only with layout 'generated'")
        return D.sides, layout
    if layout == "generated":
        seed = config.get("layout_seed", D.generator_seed)
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise SetupError(f"config.layout_seed: must be a whole number >= 0, got {clip(seed)}")
        counts = config.get("layout_counts", {"F": 7, "M": 6, "V": 3})
        if (not isinstance(counts, dict) or set(counts) != set("FMV")
                or not all(type(v) is int and 0 <= v <= 16 for v in counts.values()) or sum(counts.values()) != 16):
            raise SetupError(f"config.layout_counts: F, M and V counts summing to 16, got {clip(counts)}")
        try:
            return generate_sides(seed, counts), layout
        except ValueError as exc:
            raise SetupError(f"config.layout_counts: {exc}") from None
    if isinstance(layout, list) and len(layout) == 4:
        try:
            sides = tuple((check_side(b["A"], f"config.layout[{k}].A"), check_side(b["B"], f"config.layout[{k}].B"))
                          for k, b in enumerate(layout))
        except (DataError, KeyError, TypeError) as exc:
            raise SetupError(f"config.layout: 4 boards {{'A': [4 rows], 'B': [4 rows]}} of F/M/V ({exc})") from None
        return sides, layout
    raise SetupError(f"config.layout: 'default', 'generated' or a list of 4 boards, got {clip(layout)}")


def _terrain(rows) -> str | None:
    if rows is None:
        return None
    if (not isinstance(rows, list) or len(rows) != 8
            or not all(isinstance(r, str) and len(r) == 8 and set(r) <= set("FMVC") for r in rows)):
        raise SetupError(f"config.terrain_override: 8 strings of 8 letters F/M/V/C, got {clip(rows)}")
    text = "".join(rows)
    if mask(s for s in range(SPACES) if text[s] == "C") != CASTLE_MASK:
        raise SetupError("config.terrain_override: C must mark exactly the castle (3,3) (3,4) (4,3) (4,4)")
    return text
