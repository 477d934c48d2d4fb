"""The analysis of a game (docs/evaluator.md, "Analysis"): each seat's chance to win through a game,
the largest swings with who caused them and what happened, and, for the movers' biggest drops,
the better move with its value, in plain words.

A game is judged at its *steps*: the game part's ``checkpoint`` positions (the start of every nation
turn in Imperial 2030, of every placement turn in Imperia, of every Bid in Imperial Powers) and its
end. Step k's swing is the change of the chances from step k to step k + 1, caused by the seat that
moved at step k (``mover``: the government of the nation in Imperial 2030) and chance.

**Hidden information.** The evaluator reads public information only, so the chance line is the same
for every viewer. A better move is worked out from the mover's own knowledge (the rollouts
deal again what the mover cannot see) and would tell others what the mover holds: in a game that
hides anything, the drops are explained only with ``view`` and only for that seat's own moves.

    from imperial_lab.core.analysis import analyse_log, win_chance_line
    result = analyse_log("game.jsonl")            # steps, swings, drops (JSON-able)
    win_chance_line("game.jsonl")                 # [(step, ply, mover, [chance per seat]), ...]
"""

from __future__ import annotations

import random
import time

import numpy as np

from imperial_lab.core.errors import SetupError
from imperial_lab.core.evaluator import GreedyBot, action_values, evaluator, heuristic_policy, normalise
from imperial_lab.core.evaluator import after as after_moves
from imperial_lab.core.gamelog import replay_game
from imperial_lab.core.interface import CHANCE, seat_name
from imperial_lab.core.rollout import DEFAULT_PLAYOUTS, RolloutBot

SWINGS = 5  # the largest swings reported
MAX_LINES = 4  # lines of "what happened" per step


class _Steps:
    """Collects a replayed game's steps: each checkpoint's state, mover and the events up to the next."""

    def __init__(self):
        self.part = None
        self.texts = None
        self.steps: list[dict] = []
        self._active = None

    def begin(self, state, header) -> None:
        from imperial_lab.core.session import texts_for

        self.part = evaluator(state.game.name).part
        self.texts = texts_for(state.game.name)
        self.header = header
        self._look(state, -1)

    def step(self, state, player, action, events) -> None:
        if self.steps:
            if "action" not in self.steps[-1] and player == self.steps[-1]["mover"]:
                self.steps[-1]["action"] = action  # the move the mover made at the step
            lines = self.steps[-1]["lines"]
            if len(lines) < MAX_LINES and player != CHANCE:
                lines += [line.strip() for line in self.texts.event_lines(events, self._active) if line.strip()]
        self._look(state, player)

    def _look(self, state, player) -> None:
        self._active = self.texts.active(state)
        self.ply = getattr(self, "ply", -1) + 1
        if (self.part.started(state) and self.part.checkpoint(state)) or state.is_terminal():
            mover = state.current_player()
            copy = state.clone()
            if hasattr(copy, "recording"):
                copy.recording = False
            self.steps.append({"ply": self.ply, "mover": mover, "state": copy, "lines": [],
                               "who": self.texts.actor(state, mover) if mover >= 0 else "the end"})


def _replay(source, bar=None) -> _Steps:
    steps = _Steps()

    def on_step(*step):
        steps.step(*step)
        if bar is not None:
            bar.update()

    replay_game(source, on_start=steps.begin, on_step=on_step)
    if not steps.steps:
        raise SetupError("the log has no position to judge (it stops before the first turn)")
    return steps


def chances_of(states: list) -> np.ndarray:
    """Each seat's chance to win at each of ``states`` (one game), in one pass of the model."""
    model = evaluator(states[0].game.name)
    n = len(states[0].returns())
    out = np.zeros((len(states), n))
    rows, where = [], []
    for k, state in enumerate(states):
        if state.is_terminal():
            out[k] = model.win_chances(state)
        else:
            rows += model.features(state)
            where.append(k)
    if where:
        logits = model.logits(np.array(rows, dtype=float)).reshape(len(where), n)
        for k, row in zip(where, logits):
            out[k] = normalise(row)
    return out


def win_chance_line(source) -> list[tuple[int, int, int, list[float]]]:
    """Each step of a move log: (step, ply (the index of the step's first action in the log), mover,
    each seat's chance to win there); the last is the end (mover -4) when the game is over."""
    steps = _replay(source).steps
    chances = chances_of([s["state"] for s in steps])
    return [(k, s["ply"], s["mover"], chances[k].tolist()) for k, s in enumerate(steps)]


BIG_SWING = 0.2  # a step that moves some seat's chance this much (20 points) is a big swing: about ten a game
SHOWN_CHANGE = 0.005  # a change under half a point reads as no change


def big_swings(chances) -> list[int]:
    """The steps k (from 1) at which some seat's chance differs from step k - 1 by BIG_SWING or more;
    ``chances``: each step's chance per seat (a row of ``win_chance_line``'s chances each)."""
    line = np.asarray(chances, dtype=float)
    if len(line) < 2:
        return []
    return [int(k) + 1 for k in np.flatnonzero(np.abs(np.diff(line, axis=0)).max(axis=1) >= BIG_SWING)]


def swing_words(who: str, before, after) -> str:
    """One step's swing in words: the mover, then each seat whose chance changed, the largest change
    first: "Player B for India: Player B's chance rises from 22% to 31%, Player A's falls from 40% to
    30%" (a big swing says so); "nobody's chance changed" when no change reaches half a point."""
    changes = sorted(((a - b, seat) for seat, (b, a) in enumerate(zip(before, after))
                      if abs(a - b) >= SHOWN_CHANGE), key=lambda c: -abs(c[0]))
    if not changes:
        return f"{who}: nobody's chance to win changed"
    parts = [f"{seat_name(seat)}'s {'rises' if change > 0 else 'falls'} from {before[seat]:.0%} to {after[seat]:.0%}"
             for change, seat in changes]
    parts[0] = parts[0].replace("'s ", "'s chance to win ", 1)
    big = "A big swing. " if abs(changes[0][0]) >= BIG_SWING else ""
    return f"{big}{who}: " + ", ".join(parts)


def chance_words(before: float, after: float, whose: str = "Your") -> str:
    """"Your chance to win went from 22% to 31%" (or stayed: a change under half a point)."""
    if abs(after - before) < SHOWN_CHANGE:
        return f"{whose} chance to win stayed at {before:.0%}"
    return f"{whose} chance to win went from {before:.0%} to {after:.0%}"


def analyse_log(source, seconds_per_step: float = 0.0, view: int | None = None, drops: int = 3,
                progress: bool = True, playouts_per_step: int = 0) -> dict:
    """The analysis of a move log (see the module docstring), JSON-able. A drop's better move is one
    ply on the evaluator, or with ``seconds_per_step`` (wall clock) or ``playouts_per_step``
    (reproducible) the rollout bot's (whichever budget ends first when both are given)."""
    from tqdm import tqdm

    start = time.perf_counter()
    if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
        from imperial_lab.core.gamelog import read_log

        actions = len(read_log(source)[1])
    else:
        source = list(source)
        actions = max(len(source) - 1, 0)
    with tqdm(total=actions, desc="replayed", unit="action", disable=not progress, leave=False) as bar:
        collected = _replay(source, bar)
    steps = collected.steps
    first = steps[0]["state"]
    game, n = first.game.name, len(first.returns())
    if view is not None and not 0 <= view < n:
        raise SetupError(f"--view: seat {view} is not a seat of this {n}-player game")
    chances = chances_of([s["state"] for s in steps])
    rows = []
    for k, s in enumerate(steps):
        rows.append({"step": k, "ply": s["ply"], "mover": s["mover"], "who": s["who"],
                     "chances": [round(float(c), 4) for c in chances[k]], "happened": s["lines"]})
    swings = _swings(rows, chances)
    hides = _hides(first, n)
    explained = []
    if drops and not (hides and view is None):
        candidates = [w for w in sorted(_mover_deltas(rows, chances), key=lambda w: w["change"])
                      if w["change"] < 0 and (view is None or w["mover"] == view)][:drops]
        for w in tqdm(candidates, desc="better moves", unit="step", disable=not progress, leave=False):
            explained.append({"step": w["step"], "mover": w["mover"], "change": round(w["change"], 4),
                              **_better_move(steps[w["step"]], (seconds_per_step, playouts_per_step), collected.part)})
    return {"game": game, "players": n, "bots": collected.header.get("bots"), "view": view,
            "hidden_information": hides, "steps": rows, "swings": swings, "drops": explained,
            "seconds": round(time.perf_counter() - start, 2)}


def _hides(state, n: int) -> bool:
    """Whether some seat's observation differs from the whole position (the game hides something)."""
    whole = state.to_json()
    return any(state.observation(p) != whole for p in range(n))


def _mover_deltas(rows: list[dict], chances: np.ndarray) -> list[dict]:
    out = []
    for k in range(len(rows) - 1):
        mover = rows[k]["mover"]
        if mover >= 0:
            out.append({"step": k, "mover": mover, "change": float(chances[k + 1][mover] - chances[k][mover])})
    return out


def _swings(rows: list[dict], chances: np.ndarray) -> list[dict]:
    """The SWINGS largest changes of any seat's chance from one step to the next."""
    found = []
    for k in range(len(rows) - 1):
        delta = chances[k + 1] - chances[k]
        gain, loss = int(np.argmax(delta)), int(np.argmin(delta))
        found.append({"step": k, "ply": rows[k]["ply"], "mover": rows[k]["mover"], "who": rows[k]["who"],
                      "size": round(float(np.abs(delta).max()), 4),
                      "gainer": gain, "gain": round(float(delta[gain]), 4),
                      "loser": loss, "loss": round(float(delta[loss]), 4), "happened": rows[k]["happened"],
                      "words": _swing_words(rows[k]["who"], gain, float(delta[gain]), loss, float(delta[loss]))})
    return sorted(found, key=lambda w: (-w["size"], w["step"]))[:SWINGS]


def _swing_words(who: str, gain: int, up: float, loss: int, down: float) -> str:
    """"Player A for Europe: Player A +69%, Player B -50%" (the step's mover, then the changes)."""
    return f"{who}: {seat_name(gain)} {up:+.0%}, {seat_name(loss)} {down:+.0%}"


def _better_move(step: dict, budget: tuple, part, drop: bool = True) -> dict:
    """The better move at a step, with its value and the value of the move played: by the rollout
    bot (every candidate played on to the end many times) for ``budget``, (seconds, playouts), or
    with (0, 0) by one ply on the evaluator; ``drop``: the step is a drop of the mover's chance."""
    state = step["state"]
    legal = list(state.legal_actions())
    played = step.get("action")
    seconds, playouts = budget
    if seconds > 0 or playouts > 0:
        # the played move stays in the race to its end: its value is measured on as many rollouts
        # as the choice's, from the same draws
        bot = RolloutBot(seed=0, seconds=seconds or None, playouts=playouts or None)
        stats = bot.analyse(state, keep=[played] if played in legal else [])
        values = {s.action: s.value for s in stats if s.value is not None}
        # the best mean among the moves run to the race's end (the played one is), not the bot's
        # choice: the bot keeps the heuristic's move unless beaten clearly, which would name a
        # "better" move that did worse than the move played
        most = max(s.visits for s in stats)
        best = max((s for s in stats if s.visits == most), key=lambda s: s.value or 0.0).action
        budgets = [f"{playouts} playouts"] * bool(playouts) + [f"{seconds:g} s"] * bool(seconds)
        how = "rollouts, " + " or ".join(budgets)
    else:
        rng = random.Random(0)
        one = action_values(state, legal, heuristic_policy(state, rng), rng)
        values = dict(zip(legal, one))
        best = legal[int(np.argmax(one))]
        how = "one ply on the evaluator"
    out = {"how": how, "best": part.move_words(state, best), "best_value": _round(values.get(best)),
           "played": None if played is None else part.move_words(state, played),
           "played_value": _round(values.get(played)) if played is not None else None}
    out["words"] = hint_words(out["best"], out["best_value"], out["played"], out["played_value"], drop)
    return out


def better_move_at(source, ply: int, playouts: int = DEFAULT_PLAYOUTS) -> dict:
    """The better move at the step of a move log that begins at action ``ply`` (a ply of
    ``win_chance_line``), by ``playouts`` of the rollout bot, beside the move played there, as the
    analysis words it: {"mover", "how", "best", "best_value", "played", "played_value", "words"}
    (the explorer's "What was better here?"). Refused for a game that hides information: a better
    move reads what the mover holds (``analyse_log`` with ``view`` shows a seat its own)."""
    collected = _replay(source)
    step = next((s for s in collected.steps if s["ply"] == ply and s["mover"] >= 0), None)
    if step is None:
        raise SetupError(f"no seat's decision begins a step at action {ply} of this log")
    state = step["state"]
    if _hides(state, len(state.returns())):
        raise SetupError("this game hides information: a better move is shown only to the seat that moved "
                         "(imperial analyse --view SEAT)")
    return {"mover": step["mover"], **_better_move(step, (0, playouts), collected.part, drop=False)}


def _round(x) -> float | None:
    return None if x is None else round(float(x), 4)


def action_hint(state, action, seed: int = 0) -> dict:
    """How ``action`` (legal in ``state``) moves the deciding seat's chance to win, as ``greedy``
    judges it: ``before`` (the position now, its turn played on by the heuristic to the next
    checkpoint), ``after`` (the same with ``action`` first) and ``words``: "Player A buys India's 9m
    bond: your chance rises from 22% to 31%" (the Play page's hint). Public information only."""
    me = state.current_player()
    model = evaluator(state.game.name)
    rng = random.Random(seed)
    policy = heuristic_policy(state, rng)
    before = model.win_chances(after_moves(state, None, policy, rng))[me]
    chance = chance_after(state, action, seed)
    move = model.part.move_words(state, action)
    if abs(chance - before) < 0.005:
        words = f"{move}: your chance stays at {before:.0%}"
    else:
        words = f"{move}: your chance {'rises' if chance > before else 'falls'} from {before:.0%} to {chance:.0%}"
    return {"before": before, "after": chance, "words": words}


def chance_after(state, action, seed: int = 0) -> float:
    """The deciding seat's chance to win after ``action``, its turn played on by the heuristic seeded
    with ``seed`` (the same draws whatever the action, so two actions' chances compare)."""
    rng = random.Random(seed)
    return action_values(state, [action], heuristic_policy(state, rng), rng)[0]


def bot_choice(state, seed: int = 0) -> tuple:
    """What the win-chance bot (``greedy``, seeded with ``seed``) would play in ``state``, and the deciding
    seat's chance after it judged as ``action_hint`` judges a move (``chance_after``, the same seed):
    comparable with a person's move in that position."""
    action = GreedyBot(seed).decide(state, state.legal_actions())
    return action, chance_after(state, action, seed)


def hint_words(best: str, best_value: float | None, played: str | None, played_value: float | None,
               drop: bool = True) -> str:
    """A better move in words: "Better: Buying India 3 (31% to win) instead of Rondel to Production
    (22%)"; when the move played is the best one, says so (and, at a ``drop``, that it came after)."""
    chance = f" ({best_value:.0%} to win)" if best_value is not None else ""
    if played is not None and played == best:
        return f"The move played is the best one found: {best}{chance}" + ("; the drop came after it" if drop else "")
    text = f"Better: {best}{chance}"
    if played is not None:
        text += f" instead of {played}" + (f" ({played_value:.0%})" if played_value is not None else "")
    return text


def report(result: dict) -> str:
    """The analysis in plain text."""
    n = result["players"]
    seats = [seat_name(p) for p in range(n)]
    lines = [f"{result['game']}: {n} players, {len(result['steps'])} steps "
             f"(each seat's chance to win at the start of each turn; {result['seconds']:.1f} s)", ""]
    lines.append("step   ply  mover            " + "  ".join(f"{s:>9}" for s in seats))
    for row in result["steps"]:
        mover = seat_name(row["mover"]) if row["mover"] >= 0 else "end"
        lines.append(f"{row['step']:>4} {row['ply']:>5}  {mover:<15}  "
                     + "  ".join(f"{c:>9.0%}" for c in row["chances"]))
    lines += ["", "largest swings:"]
    for w in result["swings"]:
        lines.append(f"  step {w['step']}: {w['words']}" + (f" ({'; '.join(w['happened'][:2])})" if w["happened"] else ""))
    if result["drops"]:
        lines += ["", "the movers' biggest drops:"]
        for d in result["drops"]:
            lines.append(f"  step {d['step']}, {seat_name(d['mover'])} {d['change']:+.0%}: {d['words']} [{d['how']}]")
    elif result["hidden_information"] and result["view"] is None:
        lines += ["", "better moves: give --view SEAT (this game hides information; a seat's better moves "
                      "are shown to that seat only)"]
    return "\n".join(lines)


def start_chances(config: dict, samples: int = 20, seed: int = 0) -> list[float]:
    """Each seat's chance to win a setup (a game config) by the evaluator at its first checkpoint
    (Imperial 2030: the first nation's turn), the mean over ``samples`` draws of what comes before
    it: chance (a random deal) and any decision (the game's heuristic, else the first legal action)."""
    import random

    from imperial_lab.core.bots import bot_classes, make_bot
    from imperial_lab.core.interface import make_game
    from imperial_lab.core.mcts import sample_chance

    game = make_game(config)
    part = evaluator(game.name).part
    rng = random.Random(f"start:{seed}")
    has_heuristic = "heuristic" in bot_classes(game.name)
    states = []
    for _ in range(samples):
        state = game.new_initial_state()
        bot = make_bot("heuristic", rng.getrandbits(32), game=game.name) if has_heuristic else None
        while not state.is_terminal() and not (part.started(state) and part.checkpoint(state)):
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(bot.decide(state, legal) if bot else legal[0])
        states.append(state)
    return chances_of(states).mean(axis=0).tolist()


# ----- the analyses of a run, as a table of the catalogue -----

TABLE = "win_chances"  # its columns: imperial_lab.core.tables.ANALYSIS_TABLES

def analyse_run(folder, catalog=None, progress: bool = True) -> dict:
    """Write the win-chance table of every finished game of the run in ``folder`` (one file per
    finished chunk) and register the run again so the catalogue's view reads it."""
    from pathlib import Path

    import pyarrow.parquet as pq
    from tqdm import tqdm

    from imperial_lab.core import runstore
    from imperial_lab.core.catalog import register_run
    from imperial_lab.core.tables import ANALYSIS_TABLES, analysis_frame, games_table

    folder = Path(folder).resolve()
    params = runstore.read_run(folder)
    if params is None:
        raise SetupError(f"{folder}: no run.json: not a run folder")
    game = runstore.run_game(folder)
    evaluator(game)  # a game without a model says so before anything is read
    done = runstore.markers(folder)
    table = games_table(game)
    rows = 0
    COLUMNS = ANALYSIS_TABLES[TABLE]
    bar = tqdm(total=sum(m["count"] for m in done.values()), unit="game", desc="analysed", disable=not progress)
    for chunk in sorted(done):
        path = folder / table / f"{runstore.chunk_name(chunk)}.parquet"
        games = pq.read_table(path, columns=["run", "game_id", "status", "log"]).to_pylist()
        out: dict[str, list] = {name: [] for name, _, _ in COLUMNS}
        for g in games:
            bar.update()
            if g["status"] != "finished" or not g["log"]:
                continue
            for step, ply, mover, chances in win_chance_line(g["log"].splitlines()):
                for seat, chance in enumerate(chances):
                    for name, value in zip(out, (g["run"], g["game_id"], step, ply, mover, seat, chance)):
                        out[name].append(value)
        frame = analysis_frame(TABLE, out)
        runstore.write_parquet(folder / TABLE / f"{runstore.chunk_name(chunk)}.parquet", frame)
        rows += len(frame)
    bar.close()
    finished = sum(m["count"] for m in done.values()) == params.get("games")
    register_run(folder, "imported" if params.get("kind") == "import" else "complete" if finished else "partial",
                 catalog)
    return {"run": params["name"], "rows": rows, "path": str(folder / TABLE)}
