"""The heuristic deck-builder: its strongest spell by the word finder, abilities, attacks, buys by priority."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from spellpress.rules.protocol import Player
from spellpress.rules.spelled.actions import (
    END_TURN,
    Attack,
    Buy,
    Destroy,
    Drop,
    Force,
    Fragment,
    Scrap,
    ScrapPlayed,
    Spell,
    TakeFree,
)
from spellpress.rules.spelled.content import CardDef, Catalog
from spellpress.rules.spelled.state import SpelledState

WEIGHTS = {"energy": 1.0, "damage": 1.0, "heal": 0.8, "draw": 1.6, "scrap_hand": 0.8, "scrap_discard": 0.8,
           "scrap_market": 0.2, "acquire": 0.8, "to_hand": 0.8, "to_top": 0.5, "discard": 1.0, "destroy": 1.2}


def box_value(box: tuple | None) -> float:
    return sum(WEIGHTS[name] * amount for name, amount in box or ())


def _usefulness(cat: Catalog) -> dict[str, float]:
    """How readily each letter joins words: its share of the lexicon's letter keys, to the power 0.75, 1 at the top."""
    useful = cat.__dict__.get("_useful")
    if useful is None:
        counts = Counter("".join(cat.keys))  # one pass in C over every key's letters
        top = max(counts.values())
        useful = cat.__dict__["_useful"] = {c: (counts[c] / top) ** 0.75 for c in "abcdefghijklmnopqrstuvwxyz"}
    return useful


def _places(letters: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Each letter with the number of the same letter before it: ("a", "b", "a") -> (a, 0), (b, 0), (a, 1)."""
    seen: dict[str, int] = {}
    places = []
    for c in letters:
        nth = seen.get(c, 0)
        places.append((c, nth))
        seen[c] = nth + 1
    return tuple(places)


def spell_gain(d: CardDef) -> float:
    """What a card adds to a spell: its damage and its spelled boxes."""
    return d.damage + sum(box_value(b) for b in d.spelled)


class _Tables:
    """Per card uid, worked out once per catalog: its value in a deck (SpelledHeuristic.card_value), what it
    adds to a spell, whether it is a vowel."""

    def __init__(self, player: SpelledHeuristic, state: SpelledState):
        defs = state.defs
        self.value = [player.card_value(state, d) for d in defs]
        self.gain = [spell_gain(d) for d in defs]
        self.vowel = [d.letter in "aeiou" for d in defs]
        self.fragment = [box_value(d.fragment) for d in defs]
        # ranks for min/max over a hand by a C key call: the order of (value, uid) and of (fragment, -uid)
        self.drop_rank = _ranks(range(len(defs)), lambda u: (self.value[u], u))
        self.fragment_rank = _ranks(range(len(defs)), lambda u: (self.fragment[u], -u))
        self.draws = [any(n == "draw" for n, _ in d.fragment) for d in defs]  # its fragment draws cards
        self.scrap = [box_value(d.scrap) for d in defs]
        self.scrap_damage = [sum(a for n, a in d.scrap or () if n == "damage") for d in defs]
        self.best_spells: dict[tuple[int, ...], tuple[int, ...] | None] = {}  # hand -> its best spell
        self.spell_letters: dict[str, tuple[tuple[tuple[str, int], ...], ...]] = {}  # a hand's letters A-Z -> its spells


def _ranks(uids: range, order: Callable[[int], tuple]) -> list[int]:
    """uid -> its place when every uid is sorted by `order` (distinct for distinct uids)."""
    ranks = [0] * len(uids)
    for place, uid in enumerate(sorted(uids, key=order)):
        ranks[uid] = place
    return ranks


def _tables(state: SpelledState, player: SpelledHeuristic) -> _Tables:
    tables = state.cat.__dict__.get("_heuristic_tables")
    if tables is None:
        tables = state.cat.__dict__["_heuristic_tables"] = _Tables(player, state)
    return tables


class SpelledHeuristic(Player[SpelledState]):
    """A deck-builder: plays its strongest spell (found with the word finder), the
    rest as fragments, uses its abilities, attacks, then buys by priority.

    Buy priority: a card's abilities weighted by WEIGHTS, its damage weighted by
    how easily its letter joins words (dictionary letter frequency), plus its
    lasting value as a shield or totem; vowels gain weight when the deck runs
    short of them. `skill` < 1 makes some decisions at random."""

    def __init__(self, skill: float = 1.0):
        self.skill = skill
        self.name = f"heuristic({skill:g})"

    # value of a card in a deck (buy priority and scrap choice)
    def card_value(self, state: SpelledState, d: CardDef) -> float:
        useful = _usefulness(state.cat)[d.letter]
        value = box_value(d.fragment) + useful * spell_gain(d) * 0.7 + box_value(d.scrap) * 0.3
        if d.kind == "shield":
            value += 0.5 + 0.25 * d.strength
        elif d.kind == "totem":
            value += 0.5 + 0.15 * d.strength
        return value

    def vowel_share(self, state: SpelledState, side: int) -> float:
        cards = state.deck_cards(side)
        return sum(map(_tables(state, self).vowel.__getitem__, cards)) / max(1, len(cards))

    def act(self, state: SpelledState, seat: int, rng: random.Random) -> Any:
        side = state.side_of[seat]
        hand = state.hand[seat]
        tables = _tables(state, self)
        explore = self.skill < 1.0 and rng.random() > self.skill
        if state.phase == "discard":
            return END_TURN
        if state.phase in ("setup-drop", "drop"):
            return Drop("drop", min(hand, key=tables.drop_rank.__getitem__) if not explore else rng.choice(hand))
        action: tuple | None = self._play_hand(state, side, hand, tables, rng, explore)  # steps 1 to 3
        if action is None:
            action = self._use_ability(state, side, tables)  # 4.
        if action is None:
            action = self._scrap_played(state, side, tables)  # 5.
        if action is not None:
            return action
        # 6. attacks
        if state.attacks:
            return self.attack(state, side, rng, explore)
        # 7. buys
        buy = self.buy_choice(state, side, rng, explore)
        if buy is not None:
            return Buy("buy", buy)
        if state.owes():  # the rest of a partly used box
            return next(a for a in state.legal_actions() if isinstance(a, (Scrap, Force, Destroy, Attack)))
        return END_TURN

    def _play_hand(self, state: SpelledState, side: int, hand: list[int], tables: _Tables,
                   rng: random.Random, explore: bool) -> Fragment | Spell | Scrap | None:
        # 1. draw fragments not needed for the best spell, then the best spell
        spell = self.best_spell(state, hand, rng, explore)
        spell_cards = set(spell or ())
        draws = tables.draws
        for u in hand:
            if draws[u] and u not in spell_cards:
                return Fragment("fragment", u)
        if spell:
            return Spell("spell", spell)
        # 2. scrap weak cards from hand before playing them
        if state.tokens["scrap_hand"] and hand:
            target = self.scrap_choice(state, side, hand)
            if target is not None:
                return Scrap("scrap", target)
        # 3. the rest as fragments (ones that might want keeping are kept only if no use)
        if hand:
            return Fragment("fragment", max(hand, key=tables.fragment_rank.__getitem__))
        return None

    def _use_ability(self, state: SpelledState, side: int, tables: _Tables) -> Destroy | Force | Scrap | TakeFree | None:
        """4. the abilities the turn's cards gave: destroy, force a discard, scrap, take a card free."""
        defs, value = state.defs, tables.value
        if state.tokens["destroy"]:
            lasting = [u for s in state.enemies(side) for u in state.lasting_of(s)]
            if lasting:
                return Destroy("destroy", max(lasting, key=lambda u: (defs[u].kind == "shield", defs[u].strength, u)))
        if state.tokens["discard"]:
            return Force("force", min(state.enemies(side), key=lambda s: state.health[s]))
        if state.tokens["scrap_discard"] and state.discard[side]:
            target = self.scrap_choice(state, side, state.discard[side])
            if target is not None:
                return Scrap("scrap", target)
        if state.free:
            shop = [u for u in state.row if u is not None and defs[u].cost <= max(state.free)]
            if shop:
                return TakeFree("free", max(shop, key=lambda u: (value[u], defs[u].cost, -u)))
        if state.tokens["scrap_market"]:
            row = [u for u in state.row if u is not None]
            if row:
                return Scrap("scrap", min(row, key=lambda u: (value[u], u)))
        return None

    @staticmethod
    def _scrap_played(state: SpelledState, side: int, tables: _Tables) -> ScrapPlayed | None:
        """5. scrap boxes of played cards: when lethal, or when the card is cheap."""
        defs, value = state.defs, tables.value
        enemy = None
        for u in state.played:
            if defs[u].scrap is None:
                continue
            dmg = tables.scrap_damage[u]
            if enemy is None:
                enemy = min(state.enemies(side), key=lambda s: state.health[s])
            lethal = dmg and not state.shields_of(enemy) and sum(state.attacks) + dmg >= state.health[enemy]
            if lethal or tables.scrap[u] >= value[u] + 0.5:
                return ScrapPlayed("scrapself", u)
        return None

    def best_spell(self, state: SpelledState, hand: list[int], rng: random.Random, explore: bool) -> tuple | None:
        if len(hand) < state.cat.min_letters:
            return None
        if explore:  # a random one of the spells, in the word finder's order
            return self._spells(state, hand, rng, explore)
        known = _tables(state, self).best_spells
        key = tuple(sorted(hand))  # the best spell is the same whatever the hand's order (see _spells)
        found = known.get(key, ())  # (): not looked at yet (no spell has no cards; no spell at all is None)
        if found == ():  # a turn asks again at every action that leaves the hand as it is
            if len(known) > 100_000:
                known.clear()
            found = known[key] = self._spells(state, hand, rng, explore)
        return found

    def _spells(self, state: SpelledState, hand: list[int], rng: random.Random, explore: bool) -> tuple | None:
        """The spell of highest gain (explore: a random one): of each letter the cards of highest gain, lowest
        uid first, so neither the pick nor the tie-break (the sorted uids) depends on the hand's order."""
        defs = state.defs
        spells = self._spell_letters(state, "".join(defs[u].letter for u in hand), explore)
        if not spells:  # most hands the heuristic looks at make no word
            return None
        gain_of = _tables(state, self).gain
        by_letter: dict[str, list[int]] = {}
        for u in hand:
            by_letter.setdefault(defs[u].letter, []).append(u)
        for cards in by_letter.values():
            cards.sort(key=lambda u: (-gain_of[u], u))
        options: list[tuple[float, tuple]] = []
        for places in spells:
            picked = [by_letter[c][nth] for c, nth in places]
            gain = sum(map(gain_of.__getitem__, picked))
            if len(picked) >= state.bonus_letters:
                gain += state.bonus_damage
            gain += 0.01 * len(picked)
            options.append((gain, tuple(sorted(picked))))
        if explore:
            return rng.choice(options)[1]
        return max(options)[1]

    def _spell_letters(self, state: SpelledState, letters: str, explore: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
        """Each spell the hand's letters make, once, in the word finder's order, as its letters' places in the
        hand: (letter, which copy of it), the first copy 0. Its matches are listed by their letters A-Z,
        whatever the hand's order; only the order of the list depends on it, which only a random pick
        (explore) reads: else they are kept by the letters A-Z."""
        known = _tables(state, self).spell_letters
        key = "".join(sorted(letters))
        found = None if explore else known.get(key)
        if found is None:
            matches = state.cat.finder.find(letters, min_length=state.cat.min_letters)
            found = tuple(map(_places, dict.fromkeys(m.cards for m in matches)))
            if not explore:
                if len(known) > 100_000:
                    known.clear()
                known[key] = found
        return found

    def scrap_choice(self, state: SpelledState, side: int, cards: list[int]) -> int | None:
        """The weakest card worth losing: a starter, and never a vowel the deck needs."""
        defs, value = state.defs, _tables(state, self).value
        share = self.vowel_share(state, side)
        size = len(state.deck_cards(side))
        for u in sorted(cards, key=lambda u: (value[u], u)):
            d = defs[u]
            if d.origin != "starter" or size <= 8:
                return None
            if d.letter in "aeiou" and (share * size - 1) / (size - 1) < 0.45:
                continue
            return u
        return None

    def attack(self, state: SpelledState, side: int, rng: random.Random, explore: bool) -> tuple:
        defs = state.defs
        i = max(range(len(state.attacks)), key=lambda j: state.attacks[j])
        amount = state.attacks[i]
        targets = state.targets(side)
        if explore:
            return Attack("attack", i, rng.choice(targets))
        sides = [t for t in targets if t < 0]
        if not sides:  # shields stand: hit the one closest to breaking
            return Attack("attack", i, min(targets, key=lambda u: (defs[u].strength - state.hits.get(u, 0), u)))
        victim = min(sides, key=lambda t: state.health[-1 - t])
        total = sum(state.attacks)
        if total >= state.health[-1 - victim]:
            return Attack("attack", i, victim)
        totems = [u for u in targets if u >= 0 and defs[u].strength - state.hits.get(u, 0) <= amount <= 3]
        if totems:
            return Attack("attack", i, totems[0])
        return Attack("attack", i, victim)

    def buy_choice(self, state: SpelledState, side: int, rng: random.Random, explore: bool) -> int | None:
        defs, tables = state.defs, _tables(state, self)
        value = tables.value
        shop = [u for u in state.row if u is not None and defs[u].cost <= state.energy]
        cards = state.deck_cards(side)
        vowels_low = sum(map(tables.vowel.__getitem__, cards)) / max(1, len(cards)) < 0.33  # vowel_share
        reserve = [u for u in state.reserve if defs[u].cost <= state.energy]
        if explore:
            options = shop + reserve
            return rng.choice(options) if options else None
        best, best_score = None, 0.0
        for u in shop:
            d = defs[u]
            score = value[u] + 0.35 * d.cost
            if d.letter in "aeiou" and vowels_low:
                score += 1.5
            if score > best_score:
                best, best_score = u, score
        # a card weaker than the deck's average only dilutes it (the average is summed only when it decides)
        if best is not None and value[best] >= 2.2 and value[best] >= sum(map(value.__getitem__, cards)) / max(1, len(cards)):
            return best
        if vowels_low and reserve:
            return reserve[0]
        if best is not None and value[best] >= 1.6:
            return best
        return None
