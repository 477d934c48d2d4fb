"""Actions of Imperial 2030: small int tuples in the hot path, a stable text form for people.

An action is a tuple whose first item is its type. The text form (``action_text``) parses back
with ``parse_action``; the grammar is documented in docs/formats.md ("Action notation").

    deal RU,CN,IN,BR                      chance: flag cards per seat (§4.2)
    buy RU 3 | upgrade CN 2 -> 5 | pass   bond transaction or variant pick (§4.3, §7.5)
    topup 3                               government moves 3m of cash into the treasury (§5)
    rondel taxation                       rondel destination (§6)
    veto | no veto                        Swiss-bank veto of a pass over Investor (§8)
    build berlin | build none             factory site (§7.1)
    produce moscow,vladivostok            which factories produce when a unit limit bites (§7.2)
    import army moscow | import done      one import placement at a time (§7.3)
    move fleet london -> north_atlantic   fleet move (§7.4.1)
    move [hostile|friendly] army A -> B [via S1,S2] [as hostile|as friendly]   army move (§7.4.2)
    allow | deny                          canal controller's answer (§7.4.3)
    fight CN fleet | decline              mover names a unit to fight, or declines (§7.4.4)
    demand [hostile|friendly] army        another nation demands battle with that unit (§7.4.4)
    battle fleet china_sea vs CN fleet    battle by a unit that has not moved (§7.4.4 step 4)
    destroy murmansk with 3 hostile       factory destruction; how many hostile armies go (§7.4.7)
    end maneuver                          end of the unit phases, flags are resolved (§7.4.8)
    flag peru                             flag choice when the supply is short (§7.4.8)
"""

from __future__ import annotations

from typing import NoReturn

from imperial_lab.core.errors import NotationError
from imperial_lab.core.games.imperial2030.data import NATIONS, SPACES, Board
from imperial_lab.core.jsonio import action_words, clip

(DEAL, TOPUP, RONDEL, VETO, BUILD, PRODUCE, IMPORT, FLEET, ARMY, CANAL, FIGHT, DEMAND, DECLINE,
 BATTLE, DESTROY, END, FLAG, BUY, UPGRADE, PASS) = range(20)

ARMY_UNIT, FLEET_UNIT = 0, 1
UNIT_NAMES = ("army", "fleet")
NO_STANCE, FRIENDLY, HOSTILE = 0, 1, 2
STANCE_NAMES = ("", "friendly", "hostile")

Action = tuple


def _unit(kind: int, stance: int) -> str:
    return f"{STANCE_NAMES[stance]} {UNIT_NAMES[kind]}" if stance else UNIT_NAMES[kind]


def action_text(board: Board, a: Action) -> str:
    """The documented text form of action ``a``."""
    r = board.region_ids
    t = a[0]
    if t == DEAL:
        return "deal " + ",".join(NATIONS[n] for n in a[1])
    if t == TOPUP:
        return f"topup {a[1]}"
    if t == RONDEL:
        return f"rondel {SPACES[a[1]]}"
    if t == VETO:
        return "veto" if a[1] else "no veto"
    if t == BUILD:
        return f"build {r[a[1]]}" if a[1] >= 0 else "build none"
    if t == PRODUCE:
        return "produce " + (",".join(r[x] for x in a[1]) or "none")
    if t == IMPORT:
        return f"import {UNIT_NAMES[a[1]]} {r[a[2]]}" if a[1] >= 0 else "import done"
    if t == FLEET:
        return f"move fleet {r[a[1]]} -> {r[a[2]]}"
    if t == ARMY:
        _, frm, frm_stance, to, via, to_stance = a
        text = f"move {_unit(ARMY_UNIT, frm_stance)} {r[frm]} -> {r[to]}"
        if via:
            text += " via " + ",".join(r[s] for s in via)
        if to_stance:
            text += f" as {STANCE_NAMES[to_stance]}"
        return text
    if t == CANAL:
        return "allow" if a[1] else "deny"
    if t == FIGHT:
        return f"fight {NATIONS[a[1]]} {_unit(a[2], a[3])}"
    if t == DEMAND:
        return f"demand {_unit(a[1], a[2])}"
    if t == DECLINE:
        return "decline"
    if t == BATTLE:
        _, region, kind, stance, nation, tkind, tstance = a
        return f"battle {_unit(kind, stance)} {r[region]} vs {NATIONS[nation]} {_unit(tkind, tstance)}"
    if t == DESTROY:
        return f"destroy {r[a[1]]} with {a[2]} hostile"
    if t == END:
        return "end maneuver"
    if t == FLAG:
        return f"flag {r[a[1]]}"
    if t == BUY:
        return f"buy {NATIONS[a[1]]} {a[2]}"
    if t == UPGRADE:
        return f"upgrade {NATIONS[a[1]]} {a[2]} -> {a[3]}"
    if t == PASS:
        return "pass"
    raise NotationError(f"not an Imperial 2030 action: {clip(a)}")


class _Words:
    """A cursor over the words of one action text, raising NotationError with the text on misuse."""

    def __init__(self, board: Board, text: str):
        self.board, self.text, self.words, self.i = board, text, action_words(text), 0

    def fail(self, why: str) -> NoReturn:
        raise NotationError(f"cannot parse action {clip(self.text)}: {why}")

    def peek(self) -> str | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def take(self, what: str) -> str:
        word = self.peek()
        if word is None:
            self.fail(f"expected {what}")
        self.i += 1
        return word

    def expect(self, word: str):
        if self.take(repr(word)) != word:
            self.fail(f"expected {clip(word)}")

    def region(self) -> int:
        word = self.take("a region")
        if word not in self.board.region_index:
            self.fail(f"unknown region {clip(word)}")
        return self.board.region_index[word]

    def regions(self) -> tuple[int, ...]:
        word = self.take("a list of regions")
        if word == "none":
            return ()
        out = []
        for name in word.split(","):
            if name not in self.board.region_index:
                self.fail(f"unknown region {clip(name)}")
            out.append(self.board.region_index[name])
        return tuple(out)

    def nation(self) -> int:
        word = self.take("a nation")
        if word not in NATIONS:
            self.fail(f"unknown nation {clip(word)}")
        return NATIONS.index(word)

    def number(self, lo: int = 0, hi: int = 10**9) -> int:
        word = self.take("a number")
        # ASCII digits only, and few: int() refuses '²' and numbers of more than 4,300 digits
        if not (word.isascii() and word.isdigit() and len(word) <= 12) or not lo <= int(word) <= hi:
            self.fail(f"expected a number from {lo} to {hi}, got {clip(word)}")
        return int(word)

    def unit(self) -> tuple[int, int]:
        word = self.take("a unit")
        stance = NO_STANCE
        if word in ("hostile", "friendly"):
            stance = STANCE_NAMES.index(word)
            word = self.take("'army'")
        if word not in UNIT_NAMES:
            self.fail(f"expected 'army' or 'fleet', got {clip(word)}")
        return UNIT_NAMES.index(word), stance

    def done(self, action: Action) -> Action:
        if self.i != len(self.words):
            self.fail(f"unexpected {clip(' '.join(self.words[self.i:]))}")
        return action


def parse_action(board: Board, text: str) -> Action:
    """Parse the text form of an action (syntax only; legality is the state's business)."""
    w = _Words(board, text)
    head = w.take("an action")
    if head == "deal":
        word = w.take("a list of nations")
        cards = []
        for code in word.split(","):
            if code not in NATIONS:
                w.fail(f"unknown nation {clip(code)}")
            cards.append(NATIONS.index(code))
        return w.done((DEAL, tuple(cards)))
    if head == "topup":
        return w.done((TOPUP, w.number(1)))
    if head == "rondel":
        space = w.take("a rondel space")
        if space not in SPACES:
            w.fail(f"unknown rondel space {clip(space)}")
        return w.done((RONDEL, SPACES.index(space)))
    if head == "veto":
        return w.done((VETO, 1))
    if head == "no":
        w.expect("veto")
        return w.done((VETO, 0))
    if head == "build":
        if w.peek() == "none":
            w.take("none")
            return w.done((BUILD, -1))
        return w.done((BUILD, w.region()))
    if head == "produce":
        return w.done((PRODUCE, tuple(sorted(w.regions()))))
    if head == "import":
        if w.peek() == "done":
            w.take("done")
            return w.done((IMPORT, -1, -1))
        kind, stance = w.unit()
        if stance:
            w.fail("imported units have no stance")
        return w.done((IMPORT, kind, w.region()))
    if head == "move":
        kind, stance = w.unit()
        frm = w.region()
        w.expect("->")
        to = w.region()
        if kind == FLEET_UNIT:
            return w.done((FLEET, frm, to))
        via: tuple[int, ...] = ()
        to_stance = NO_STANCE
        if w.peek() == "via":
            w.take("via")
            via = w.regions()
        if w.peek() == "as":
            w.take("as")
            word = w.take("'hostile' or 'friendly'")
            if word not in ("hostile", "friendly"):
                w.fail(f"expected 'hostile' or 'friendly', got {clip(word)}")
            to_stance = STANCE_NAMES.index(word)
        return w.done((ARMY, frm, stance, to, via, to_stance))
    if head in ("allow", "deny"):
        return w.done((CANAL, int(head == "allow")))
    if head == "fight":
        nation = w.nation()
        kind, stance = w.unit()
        return w.done((FIGHT, nation, kind, stance))
    if head == "demand":
        kind, stance = w.unit()
        return w.done((DEMAND, kind, stance))
    if head == "decline":
        return w.done((DECLINE,))
    if head == "battle":
        kind, stance = w.unit()
        region = w.region()
        w.expect("vs")
        nation = w.nation()
        tkind, tstance = w.unit()
        return w.done((BATTLE, region, kind, stance, nation, tkind, tstance))
    if head == "destroy":
        region = w.region()
        w.expect("with")
        hostile = w.number(0, 3)
        w.expect("hostile")
        return w.done((DESTROY, region, hostile))
    if head == "end":
        w.expect("maneuver")
        return w.done((END,))
    if head == "flag":
        return w.done((FLAG, w.region()))
    if head == "buy":
        nation = w.nation()
        return w.done((BUY, nation, w.number(1, 9)))
    if head == "upgrade":
        nation = w.nation()
        old = w.number(1, 9)
        w.expect("->")
        return w.done((UPGRADE, nation, old, w.number(1, 9)))
    if head == "pass":
        return w.done((PASS,))
    w.fail(f"unknown action {clip(head)}")
