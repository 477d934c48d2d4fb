"""Imperial 2030's events (``imperial_lab.core.engine.Event``): every change of state is also reported as
one of these, with the RULES.md section (``§7.6``) that made it happen.

Kinds and their fields (money moves are always ``payment`` events):
  payment            from, to, amount, reason   (from/to: "bank", a nation code, or "player:N")
  deal               cards (nation codes per seat)
  bond_taken         player, nation, number, cost            bond_returned  player, nation, number
  nation_turn        nation, government, turn, round         rondel         nation, from, to, distance, cost, passed_investor
  veto               player, nation                          factory_built  nation, region
  factory_destroyed  nation (owner), by, region              unit_built     nation, unit, region, how (production|import)
  unit_moved         nation, unit, from, to, via, stance     canal          canal, controller, nation, allowed
  battle             region, attacker, attacker_unit, defender, defender_unit
  flag_placed        nation, region                          flag_removed   nation, region
  taxation           nation, revenue, factories, flags, soldiers_pay, bonus
  power_points       nation, gained, total                   interest       nation, player, owed, paid
  government         nation, previous, new                   swiss_bank     player, has
  investor_card      previous, new                           game_ended     nation, scores, winners
"""

BANK = "bank"
_PLAYER_REFS = tuple(f"player:{p}" for p in range(6))


def player_ref(p: int) -> str:
    return _PLAYER_REFS[p] if 0 <= p < 6 else f"player:{p}"
