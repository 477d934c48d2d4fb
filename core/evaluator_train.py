"""Training and checking the learned evaluator (docs/evaluator.md): ``imperial evaluator train`` and
``imperial evaluator check``.

**Data.** Game ``k`` of a training seeded ``S`` is played from ``game_seed(S, k)`` (as ``imperial
simulate`` numbers its games) in a setup drawn from the game part's ``TRAINING_SETUPS`` by a line-up drawn from its
``TRAINING_BOTS`` and ``TRAINING_PLAYERS`` (round 0) or ``ITERATION_BOTS`` (the rounds of expert iteration, whose bots
play on the model of the round before); a share ``SAMPLE`` of its checkpoints (a nation's turn in
Imperial 2030) become positions: each seat's row of features, whether it won (a shared win counts
for every winner), its share of the final scores, the game's ``evaluate`` hook and who leads the
scores there. So a game's positions depend on (S, k) only, whatever the number of workers.

**Split by game.** Games with ``k % 5 == 4`` are held out: no position of theirs is trained on.
``imperial evaluator check`` plays games numbered from ``CHECK_FIRST`` on, never trained on.

**Model.** A scikit-learn ``MLPClassifier`` (two hidden layers) on standardised rows: the chance
that the row's seat wins, read alone; a position's chances are these scaled to sum to 1. A ridge
regression of the same rows gives the score share. The file keeps the weights, the recipe and the
held-out figures (``figures``): log loss and Brier score of the winner per position against two
baselines (the score leader wins, with the chance the training games give the leader at that stage;
the game's ``evaluate`` hook), accuracy (the most likely seat won), by stage, and a calibration
table of the seats' chances in ten bins.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import time
from dataclasses import dataclass

import numpy as np

from imperial_lab.core import evaluator as ev
from imperial_lab.core.bots import make_bot
from imperial_lab.core.play import play_game
from imperial_lab.core.simulate import game_seed

HELD_OUT = 5  # games with k % HELD_OUT == HELD_OUT - 1 are held out
CHECK_FIRST = 1_000_000  # the games of ``check`` are numbered from here: never trained on
HIDDEN = (32, 16)
EPS = 1e-6  # chances are clipped to [EPS, 1] in log losses


@dataclass
class Positions:
    """Rows of many positions, one per seat: the position's id, game and stage, the features, and
    the labels and baselines of the seat."""

    x: np.ndarray       # (rows, features)
    won: np.ndarray     # 1 for a winner
    share: np.ndarray   # the seat's share of the final scores
    hook: np.ndarray    # the game's evaluate hook
    leads: np.ndarray   # 1 for a seat leading the scores (returns) there
    pos: np.ndarray     # the position's number (rows of one position are consecutive)
    game: np.ndarray    # the game's number k
    stage: np.ndarray   # the position's stage (index in the part's STAGES)

    def subset(self, rows: np.ndarray) -> Positions:
        kept = {name: getattr(self, name)[rows] for name in self.__dataclass_fields__}
        _, kept["pos"] = np.unique(kept["pos"], return_inverse=True)
        return Positions(**kept)


# ----- playing the games -----

def lineup(game: str, part, seed: int, k: int, bots) -> tuple[dict, list[str]]:
    """The config and the seats' bot specs of game k: a setup drawn from the part's
    ``TRAINING_SETUPS`` (name, weight, players: None draws them from ``TRAINING_PLAYERS``; default:
    the game's default setup; a setup renamed since the shipped model was trained carries its old
    name from ``TRAINED_AS``), then one bot per seat."""
    from imperial_lab.core.registry import plugin
    from imperial_lab.core.setups import load_setup

    rng = random.Random(f"lineup:{seed}:{k}")
    setups = getattr(part, "TRAINING_SETUPS", None)
    name, players = plugin(game).default_setup, None
    if setups:
        name, _, players = rng.choices(setups, [w for _, w, _ in setups])[0]
    if players is None:
        counts, weights = zip(*part.TRAINING_PLAYERS)
        players = rng.choices(counts, weights)[0]
    config = load_setup(name, players, game=game)
    if name in getattr(part, "TRAINED_AS", {}):
        config = {**config, "name": part.TRAINED_AS[name]}
    specs, weights = zip(*bots)
    return config, [rng.choices(specs, weights)[0] for _ in range(players)]


def play_for_data(task: tuple) -> dict:
    """Play game k of the task and return its positions' rows (plain lists, for the pool)."""
    game, seed, k, bots = task
    part = ev.game_part(game)
    config, specs = lineup(game, part, seed, k, bots)
    s = game_seed(seed, k)
    seats = [make_bot(spec, 100 * (s % 10**9) + p, game=game) for p, spec in enumerate(specs)]
    sampler = random.Random(s)
    rows: list = []

    def on_step(state, player, action, events):
        if part.checkpoint(state) and sampler.random() < part.SAMPLE:
            scores = state.returns()
            top = max(scores)
            rows.append((part.features(state), state.game.evaluate(state), [float(v == top) for v in scores],
                         part.stage(state)))

    played = play_game(config, seats, s, record=False, on_step=on_step)
    won = played.state.winners()
    players = len(specs)
    final = [max(v, 0.0) for v in played.state.returns()]
    share = [v / (sum(final) or 1.0) for v in final]
    return {"k": k, "rows": rows, "won": [float(p in won) for p in range(players)], "share": share}


def collect(game: str, seed: int, games: range, bots, workers: int = 1, progress: bool = True) -> Positions:
    """The positions of games ``games`` (numbers k), played on ``workers`` processes."""
    from tqdm import tqdm

    tasks = [(game, seed, k, tuple(bots)) for k in games]
    bar = tqdm(total=len(tasks), unit="game", desc=f"{game} games", disable=not progress, leave=False)
    results = []
    if workers <= 1:
        for task in tasks:
            results.append(play_for_data(task))
            bar.update()
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for result in pool.imap_unordered(play_for_data, tasks, chunksize=1):
                results.append(result)
                bar.update()
    bar.close()
    results.sort(key=lambda r: r["k"])
    return _positions(results)


def _positions(results: list[dict]) -> Positions:
    cols: dict[str, list] = {name: [] for name in ("x", "won", "share", "hook", "leads", "pos", "game", "stage")}
    pos = 0
    for result in results:
        for feats, hook, leads, stage in result["rows"]:
            n = len(feats)
            cols["x"] += feats
            cols["won"] += result["won"]
            cols["share"] += result["share"]
            cols["hook"] += hook
            cols["leads"] += leads
            cols["pos"] += [pos] * n
            cols["game"] += [result["k"]] * n
            cols["stage"] += [stage] * n
            pos += 1
    return Positions(x=np.array(cols["x"], dtype=np.float64).reshape(len(cols["won"]), -1),
                     **{name: np.array(values) for name, values in cols.items() if name != "x"})


# ----- the model -----

def fit(game: str, data: Positions, seed: int, epochs: int = 40) -> dict:
    """The model document of ``game`` fitted on ``data`` (without figures and recipe).

    One game in ten of ``data`` is kept aside (by game, as the held-out split): the network is
    trained an epoch at a time and the weights of the epoch with the lowest log loss on those
    games are kept (early stopping that cannot peek at positions of the games it learns from)."""
    import warnings

    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPClassifier
    from sklearn.preprocessing import StandardScaler

    aside = data.game % 10 == 3
    scaler = StandardScaler().fit(data.x)
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    z = (data.x - scaler.mean_) / scale
    net = MLPClassifier(hidden_layer_sizes=HIDDEN, alpha=1e-2, batch_size=256, learning_rate_init=1e-3,
                        random_state=seed, shuffle=True)
    best = math.inf
    kept: tuple[list, list] = ([], [])  # the weights and biases of the best epoch so far
    classes = np.array([False, True])
    fit_z, fit_y = z[~aside], data.won[~aside] > 0
    shuffle = np.random.default_rng(seed)
    for _ in range(epochs):
        order = shuffle.permutation(len(fit_y))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            net.partial_fit(fit_z[order], fit_y[order], classes=classes)
        p = np.clip(net.predict_proba(z[aside])[:, 1], EPS, 1 - EPS)
        y = data.won[aside] > 0
        loss = float(-np.mean(np.where(y, np.log(p), np.log(1 - p))))
        if loss < best:
            best, kept = loss, ([w.copy() for w in net.coefs_], [b.copy() for b in net.intercepts_])
    ridge = Ridge(alpha=1.0).fit(z, data.share)
    return {"format": ev.FORMAT, "game": game, "features": list(ev.game_part(game).FEATURES),
            "network": {"mean": _round(scaler.mean_), "scale": _round(scale),
                        "weights": [_round(w) for w in kept[0]], "biases": [_round(b) for b in kept[1]]},
            "score_share": {"weights": _round(ridge.coef_), "bias": round(float(ridge.intercept_), 6)}}


def _round(a: np.ndarray) -> list:
    return np.round(np.asarray(a, dtype=float), 6).tolist()


def chances(model: ev.Evaluator, data: Positions) -> np.ndarray:
    """The model's chance for every row, scaled to sum to 1 in each position."""
    p = 1.0 / (1.0 + np.exp(-model.logits(data.x)))
    return p / np.bincount(data.pos, weights=p)[data.pos]


def leader_rates(data: Positions, stages: int) -> list[float]:
    """Per stage, how often a seat leading the scores wins (a shared lead counts its share)."""
    rates = []
    for s in range(stages):
        rows = (data.stage == s) & (data.leads > 0)
        lead_won = np.bincount(data.pos[rows], weights=data.won[rows], minlength=data.pos.max() + 1)
        positions = np.unique(data.pos[data.stage == s])
        rates.append(float(np.clip(np.mean(np.minimum(lead_won[positions], 1.0)), 0.05, 0.95))
                     if len(positions) else 0.5)
    return rates


def leader_chances(data: Positions, rates: list[float]) -> np.ndarray:
    """The baseline "the score leader wins": the leaders share the stage's rate, the others the rest."""
    leaders = np.bincount(data.pos, weights=data.leads)[data.pos]
    seats = np.bincount(data.pos)[data.pos]
    q = np.array(rates)[data.stage]
    out = np.where(data.leads > 0, q / leaders, (1 - q) / np.maximum(seats - leaders, 1))
    return np.where(seats == leaders, 1.0 / seats, out)


def figures(model: ev.Evaluator, data: Positions, rates: list[float]) -> dict:
    """The held-out figures of ``model`` and the two baselines on ``data`` (see the module docstring)."""
    stages = model.part.STAGES
    predictions = {"model": chances(model, data), "leader": leader_chances(data, rates), "hook": data.hook}
    target = data.won / np.bincount(data.pos, weights=data.won)[data.pos]
    out: dict = {"positions": int(data.pos.max() + 1), "games": int(len(np.unique(data.game))), "by_stage": []}
    out["all"] = _scores(predictions, target, data, np.ones(len(target), bool))
    for s, name in enumerate(stages):
        rows = data.stage == s
        if rows.any():
            out["by_stage"].append({"stage": name, **_scores(predictions, target, data, rows)})
    out["calibration"] = calibration(predictions["model"], data.won > 0)
    return out


def _scores(predictions: dict, target: np.ndarray, data: Positions, rows: np.ndarray) -> dict:
    pos = data.pos[rows]
    positions = len(np.unique(pos))
    out: dict = {"positions": positions}
    for name, p in predictions.items():
        p, t = p[rows], target[rows]
        out[f"{name}_log_loss"] = float(-np.sum(t * np.log(np.clip(p, EPS, 1.0))) / positions)
        out[f"{name}_brier"] = float(np.sum((p - t) ** 2) / positions)
        out[f"{name}_accuracy"] = _accuracy(p, data.won[rows], pos)
    return out


def _accuracy(p: np.ndarray, won: np.ndarray, pos: np.ndarray) -> float:
    """The share of positions whose most likely seat won (ties: the first seat)."""
    order = np.lexsort((-p, pos))
    first = np.r_[True, pos[order][1:] != pos[order][:-1]]
    return float(np.mean(won[order][first] > 0))


def calibration(p: np.ndarray, won: np.ndarray, bins: int = 10) -> list[dict]:
    """Predicted against observed in ``bins`` equal bins of the chance."""
    which = np.minimum((p * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        rows = which == b
        if rows.any():
            out.append({"bin": f"{b / bins:.1f}-{(b + 1) / bins:.1f}", "seats": int(rows.sum()),
                        "predicted": float(p[rows].mean()), "observed": float(won[rows].mean())})
    return out


# ----- the commands -----

def train(game: str, seed: int = 0, games: int | None = None, rounds: int | None = None,
          iteration_games: int | None = None, workers: int = 2, progress: bool = True, log=print) -> dict:
    """Train ``game``'s evaluator from ``seed``: round 0 on the mixed line-ups, then ``rounds`` rounds
    of expert iteration (games of bots playing on the model so far added to the data, the model
    refitted). Returns the model document, ladder and figures included."""
    part = ev.game_part(game)
    plan = recipe(game, seed, games, rounds, iteration_games)
    games, rounds, iteration_games = plan["games"], plan["rounds"], plan["iteration_games"]
    start = time.perf_counter()
    data = collect(game, seed, range(games), part.TRAINING_BOTS, workers, progress)
    ladder = []
    model = None
    for r in range(rounds + 1):
        if r:
            ev.install(game, model)  # the workers, forked now, play on the model of the round before
            first = games + (r - 1) * iteration_games
            more = collect(game, seed, range(first, first + iteration_games), part.ITERATION_BOTS, workers, progress)
            data = _join(data, more)
        train_rows = data.game % HELD_OUT != HELD_OUT - 1
        doc = fit(game, data.subset(train_rows), seed + r, part.RECIPE.get("epochs", 40))
        model = ev.Evaluator(game, doc)
        held = data.subset(~train_rows)
        rates = leader_rates(data.subset(train_rows), len(part.STAGES))
        got = figures(model, held, rates)
        ladder.append({"round": r, "games": int(len(np.unique(data.game))), "positions": int(data.pos.max() + 1),
                       "held_out_log_loss": got["all"]["model_log_loss"], "held_out_brier": got["all"]["model_brier"]})
        log(f"round {r}: {ladder[-1]['games']} games, held-out log loss {got['all']['model_log_loss']:.4f} "
            f"(leader {got['all']['leader_log_loss']:.4f}, hook {got['all']['hook_log_loss']:.4f})")
    ev.install(game, None)
    doc["leader_rates"] = rates
    doc["recipe"] = plan | {"seconds": round(time.perf_counter() - start, 1), "workers": workers}
    doc["ladder"] = ladder
    doc["figures"] = got
    return doc


def recipe(game: str, seed: int = 0, games: int | None = None, rounds: int | None = None,
           iteration_games: int | None = None) -> dict:
    """What a model file records of how it was trained (its "recipe", without the time and workers it
    took): the sizes (default: the game part's ``RECIPE``), the bots and setups, the network's shape."""
    part = ev.game_part(game)
    sizes = {"games": games, "rounds": rounds, "iteration_games": iteration_games}
    return {"seed": seed, **{key: part.RECIPE[key] if value is None else value for key, value in sizes.items()},
            "training_bots": [list(b) for b in part.TRAINING_BOTS],
            "training_setups": [list(x) for x in getattr(part, "TRAINING_SETUPS", ())],
            "iteration_bots": [list(b) for b in part.ITERATION_BOTS], "hidden": list(HIDDEN)}


def _join(a: Positions, b: Positions) -> Positions:
    joined = {name: np.concatenate([getattr(a, name), getattr(b, name)]) for name in Positions.__dataclass_fields__}
    joined["pos"] = np.concatenate([a.pos, b.pos + a.pos.max() + 1])
    return Positions(**joined)


def save(doc: dict, path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(doc, out, separators=(",", ":"))
        out.write("\n")


def check(game: str, games: int = 200, seed: int | None = None, workers: int = 2, progress: bool = True) -> dict:
    """The shipped (or installed) model's figures on ``games`` fresh games of the training line-ups,
    numbered from CHECK_FIRST (never trained on)."""
    model = ev.evaluator(game)
    seed = model.doc.get("recipe", {}).get("seed", 0) if seed is None else seed
    data = collect(game, seed, range(CHECK_FIRST, CHECK_FIRST + games), model.part.TRAINING_BOTS, workers, progress)
    return figures(model, data, model.doc["leader_rates"])


def report(figs: dict, stages_title: str = "stage") -> str:
    """The figures as plain-text tables."""
    lines = [f"{figs['games']} held-out games, {figs['positions']} positions "
             "(log loss and Brier score of the winner per position: lower is better)", ""]
    head = (f"{stages_title:<20} {'positions':>9}  {'log loss: model':>15} {'leader':>7} {'hook':>7}  "
            f"{'Brier: model':>12} {'leader':>7} {'hook':>7}  {'accuracy: model':>15} {'leader':>7} {'hook':>7}")
    lines.append(head)
    for row in figs["by_stage"] + [{"stage": "all", **figs["all"]}]:
        lines.append(f"{row['stage']:<20} {row['positions']:>9}  {row['model_log_loss']:>15.4f} "
                     f"{row['leader_log_loss']:>7.4f} {row['hook_log_loss']:>7.4f}  {row['model_brier']:>12.4f} "
                     f"{row['leader_brier']:>7.4f} {row['hook_brier']:>7.4f}  {row['model_accuracy']:>15.3f} "
                     f"{row['leader_accuracy']:>7.3f} {row['hook_accuracy']:>7.3f}")
    lines += ["", "calibration (each seat's chance): bin, seats, predicted, observed"]
    lines += [f"  {row['bin']}  {row['seats']:>7}  {row['predicted']:.3f}  {row['observed']:.3f}"
              for row in figs["calibration"]]
    return "\n".join(lines)


def beats_baselines(figs: dict, skip_first: bool = True) -> list[str]:
    """The stages (after the first) where the model does not beat both baselines on log loss and
    Brier score: empty when it does everywhere."""
    failing = []
    for row in figs["by_stage"][1 if skip_first else 0:]:
        for metric in ("log_loss", "brier"):
            if not row[f"model_{metric}"] < min(row[f"leader_{metric}"], row[f"hook_{metric}"]):
                failing.append(f"{row['stage']} ({metric})")
    return failing
