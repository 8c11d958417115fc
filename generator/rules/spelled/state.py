"""Spelled (Tom Allen, 2022): a deck-building word duel.

Every card (starter vowels, vowel reserve, the 78 market cards) is read from
cards/spelled/*.yaml; its abilities are data in a small vocabulary (content.py,
ABILITIES) interpreted here. Numbers (health, hand size, market row, the spelled bonus,
the first player's discard, the game modes) come from game.yaml `rules:`.

Turn: recover shields and totems (after any forced discards), main phase
(fragments, spells, abilities, acquiring, attacks, in any order), discard
phase, draw up to the hand size. The two-player game ends when a side reaches
0 Health. Multi-player modes (game.yaml `modes`) have two sides, one per
scoring set: each side shares a deck, a discard pile and a Health total; each
seat has its own hand. See cards/spelled/README.md for every reading of the
rulebook made here.

Chance: a deck is a known top part (cards put on top by abilities) over an
unordered pool; drawing from the pool is a chance event over its cards, so a
shuffle needs no random numbers of its own. The market deck is drawn likewise.

Actions (actions.py: a named tuple per kind, equal to the plain tuple; _act hands each kind to its method):
  Drop("drop", card)                discard a card (the first player's setup discard, a forced discard)
  Fragment("fragment", card)        play one card: its top box
  Spell("spell", cards)             play 3+ cards (sorted uids) whose letters make a word: all boxes
  ScrapPlayed("scrapself", card)    scrap a card played this turn for its scrap box
  Buy("buy", card)                  acquire a market-row or reserve card with energy
  TakeFree("free", card)            acquire one free with an `acquire` ability (cost up to its value)
  Scrap("scrap", card)              scrap a card from your hand, your discard pile or the market row
  Force("force", side)              an opponent of that side must discard a card before their next turn
  Destroy("destroy", card)          destroy an opponent's shield or totem in play
  Attack("attack", attack, target)  send pending attack i to a card uid (target >= 0) or to side -1 - target
  End("end", keep)                  end the main (or discard) phase; keep (True) or discard (False) the hand left
  Toss("toss", card)                end the main phase and discard this card from hand (discard phase: any cards)

A box that mixes an ability used at once (energy, heal, draw) with a choice (a
scrap, a forced discard, destroy, damage) has been partly used when gained: the
rulebook's "if you use any part of a box you must use all of it if possible"
makes its choices owed, and the main phase cannot end while one can still be made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from spellpress.rules.chance import Counted, uniform_index
from spellpress.rules.observation import CardRef, Observation, Zone, hand_zone, to_move
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Outcome, State, redeal
from spellpress.rules.spelled.actions import (
    END_KEEPING,
    END_TURN,
    Action,
    Attack,
    Buy,
    Destroy,
    Drop,
    End,
    Force,
    Fragment,
    Scrap,
    ScrapPlayed,
    Spell,
    TakeFree,
    Toss,
    typed,
)
from spellpress.rules.spelled.content import AT_ONCE, LASTING, TOKENS, Catalog
from spellpress.words.index import key as letter_key


class SpelledState(State):
    def __init__(self, cat: Catalog, players: int, mode: str | None = None):
        r = cat.rules
        modes = r["modes"]
        mode = mode or r.get("default_mode", {}).get(players) or next(m for m, v in modes.items() if v["players"] == players)
        spec = modes[mode]
        if spec["players"] != players:
            raise ValueError(f"mode {mode} is for {spec['players']} players, not {players}")
        self.cat, self.defs, self.mode, self.players = cat, cat.defs, mode, players
        self.side_seats = [list(s) for s in spec["sides"]]
        self.side_of = [0] * players
        for side, seats in enumerate(self.side_seats):
            for seat in seats:
                self.side_of[seat] = side
        self.order = list(spec["order"])
        self.start_health = list(spec["health"])
        self.health = list(self.start_health)
        self.healed = [0] * cat.sides
        self.damaged = [0] * cat.sides
        self.hand_size = int(r["hand_size"])
        self.row_size = int(r["market_row"])
        self.bonus_letters = int(r["spelled_bonus_letters"])
        self.bonus_damage = int(r["spelled_bonus_damage"])
        self.setup_scrap_cost = int(r["setup_scrap_cost"])
        # card places
        self.hand: list[list[int]] = [[] for _ in range(players)]
        self.inplay: list[list[int]] = [[] for _ in range(players)]
        self.top: list[list[int]] = [[] for _ in range(cat.sides)]
        self.pool: list[list[int]] = [list(s) for s in cat.starters]
        self.discard: list[list[int]] = [[] for _ in range(cat.sides)]
        self.row: list[int | None] = [None] * self.row_size
        self.market_pool = list(cat.market)
        self.reserve = list(cat.reserve)
        self.scrapped: list[int] = []
        self.played: list[int] = []
        # turn state
        self.turn_index = 0
        self.seat = self.order[0]  # the seat whose turn it is: order[turn_index % len(order)]
        self.turns = 0
        self.phase = "setup"
        self.to_drop = 0
        self.energy = 0
        self.tokens = dict.fromkeys(TOKENS, 0)
        self.owed = dict.fromkeys(TOKENS, 0)  # tokens from partly used boxes: to use if possible
        self.free: list[int] = []
        self.attacks: list[int] = []
        self.attack_owed: list[bool] = []  # per attack: part of a partly used box
        self.in_spell: set[int] = set()
        self.hits: dict[int, int] = {}
        self.forced = [0] * cat.sides
        self.draws: list[tuple[str, int]] = [("market", i) for i in range(self.row_size)]
        for seat in self.order_unique():
            self.draws += [("hand", seat)] * self.hand_size
        self.winner_side: int | None = None
        # statistics
        self.acquired: dict[str, set[int]] = {}
        self.figures: Counter[str] = Counter()
        self.turn_damage = 0
        self.damage_by_turn: list[int] = []
        self._settle()

    # -- helpers ---------------------------------------------------------
    def order_unique(self) -> list[int]:
        seen: list[int] = []
        for seat in self.order:
            if seat not in seen:
                seen.append(seat)
        return seen

    def enemies(self, side: int) -> list[int]:
        return [s for s in range(len(self.side_seats)) if s != side]

    def shields_of(self, side: int) -> list[int]:
        return [u for seat in self.side_seats[side] for u in self.inplay[seat] if self.defs[u].kind == "shield"]

    def lasting_of(self, side: int) -> list[int]:
        return [u for seat in self.side_seats[side] for u in self.inplay[seat]]

    def owner(self, uid: int) -> int | None:
        for seat in range(self.players):
            if uid in self.inplay[seat]:
                return seat
        return None

    def deck_cards(self, side: int) -> list[int]:
        """Every card a side owns (deck, discard, hands, in play, played this turn)."""
        cards = self.top[side] + self.pool[side] + self.discard[side]
        for seat in self.side_seats[side]:
            cards = cards + self.hand[seat] + self.inplay[seat]
        if self.side_of[self.seat] == side:
            cards = cards + self.played
        return cards

    # -- protocol ----------------------------------------------------------
    def current_player(self) -> int:
        if self.winner_side is not None:
            return TERMINAL
        if self.draws:
            return CHANCE
        return self.seat

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        kind, who = self.draws[0]
        pool = self.market_pool if kind == "market" else self.pool[self.side_of[who]]
        return Counted(list(pool), [1] * len(pool), len(pool))  # every card alike: (u, 1 / len(pool)) each

    def sample_chance(self, rng) -> int:
        """chance_outcomes()'s draw (State.sample_chance), straight from the pile: every card alike."""
        kind, who = self.draws[0]
        pile = self.market_pool if kind == "market" else self.pool[self.side_of[who]]
        return pile[uniform_index(len(pile), rng)]

    def legal_actions(self) -> list:
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.current_player() == TERMINAL:
            return []
        seat = self.seat
        side = self.side_of[seat]
        hand = self.hand[seat]
        if self.phase in ("setup-drop", "drop"):
            return [Drop("drop", u) for u in hand]
        if self.phase == "discard":
            return [Toss("toss", u) for u in hand] + [END_TURN, END_KEEPING]
        acts: list[Action] = [Fragment("fragment", u) for u in hand]
        cards = sorted(hand)
        acts += [Spell("spell", tuple(cards[i] for i in at))
                 for at in self.cat.spellable(tuple(self.defs[u].letter for u in cards))]
        acts += [ScrapPlayed("scrapself", u) for u in self.played if self.defs[u].scrap is not None]
        shop = [u for u in self.row if u is not None] + self.reserve
        acts += [Buy("buy", u) for u in shop if self.defs[u].cost <= self.energy]
        if self.free:
            acts += [TakeFree("free", u) for u in shop if self.defs[u].cost <= max(self.free)]
        if self.tokens["scrap_hand"]:
            acts += [Scrap("scrap", u) for u in hand]
        if self.tokens["scrap_discard"]:
            acts += [Scrap("scrap", u) for u in self.discard[side]]
        if self.tokens["scrap_market"]:
            acts += [Scrap("scrap", u) for u in self.row if u is not None]
        if self.tokens["discard"]:
            acts += [Force("force", s) for s in self.enemies(side)]
        if self.tokens["destroy"]:
            acts += [Destroy("destroy", u) for s in self.enemies(side) for u in self.lasting_of(s)]
        for i in range(len(self.attacks)):
            acts += [Attack("attack", i, t) for t in self.targets(side)]
        if not self.owes():
            acts += [Toss("toss", u) for u in hand]
            acts += [END_TURN, END_KEEPING]
        return acts

    def count_legal_actions(self) -> int:
        """len(legal_actions()), counted as it lists them, without making the actions (the runner counts
        them at every decision of its sampled games)."""
        player = self.current_player()
        if player == CHANCE:
            kind, who = self.draws[0]
            return len(self.market_pool if kind == "market" else self.pool[self.side_of[who]])
        if player == TERMINAL:
            return 0
        defs, seat, side = self.defs, self.seat, self.side_of[self.seat]
        hand = self.hand[seat]
        if self.phase in ("setup-drop", "drop"):
            return len(hand)
        if self.phase == "discard":
            return len(hand) + 2
        count = len(hand) + len(self.cat.spellable(tuple(defs[u].letter for u in sorted(hand))))
        count += sum(1 for u in self.played if defs[u].scrap is not None)
        shop = [u for u in self.row if u is not None] + self.reserve
        count += sum(1 for u in shop if defs[u].cost <= self.energy)
        if self.free:
            count += sum(1 for u in shop if defs[u].cost <= max(self.free))
        tokens = self.tokens
        count += (len(hand) if tokens["scrap_hand"] else 0) + (len(self.discard[side]) if tokens["scrap_discard"] else 0)
        if tokens["scrap_market"]:
            count += len(self.row) - self.row.count(None)
        if tokens["discard"]:
            count += len(self.enemies(side))
        if tokens["destroy"]:
            count += sum(len(self.lasting_of(s)) for s in self.enemies(side))
        if self.attacks:
            count += len(self.attacks) * len(self.targets(side))
        return count if self.owes() else count + len(hand) + 2

    def owes(self) -> bool:
        """Is a choice of a partly used box still owed and possible? Then the main phase cannot end."""
        side = self.side_of[self.seat]
        if any(self.attack_owed) and self.targets(side):
            return True
        if not any(self.owed.values()):  # nothing owed: the usual case, no need to look at the table
            return False
        possible = {
            "scrap_hand": bool(self.hand[self.seat]),
            "scrap_discard": bool(self.discard[side]),
            "scrap_market": any(u is not None for u in self.row),
            "discard": bool(self.enemies(side)),
            "destroy": any(self.lasting_of(s) for s in self.enemies(side)),
        }
        return any(self.owed[name] and possible.get(name, False) for name in TOKENS)

    def targets(self, side: int) -> list[int]:
        """Where damage may go: enemy shields while any stand, else enemy totems and sides."""
        out: list[int] = []
        for s in self.enemies(side):
            shields = self.shields_of(s)
            if shields:
                out += shields
            else:
                out += self.lasting_of(s)
                out.append(-1 - s)
        return out

    def apply(self, action) -> None:
        if self.winner_side is None and self.draws:  # current_player() is CHANCE
            self._resolve_draw(action)
        else:
            self._act(action)
        self._settle()

    def returns(self) -> list[float]:
        return [float(self.health[self.side_of[seat]]) for seat in range(self.players)]

    def outcome(self, stalled: bool = False) -> Outcome:
        out = super().outcome(stalled)
        out.played = {k: set(v) for k, v in self.acquired.items()}
        if any(len(seats) > 1 for seats in self.side_seats):
            out.teams = [list(seats) for seats in self.side_seats]
        figures: dict[str, float] = dict(self.figures)
        figures["turns"] = self.turns
        for i, dmg in enumerate(self.damage_by_turn):
            figures[f"damage_turn_{i + 1:02d}"] = dmg
        out.figures = figures
        return out

    # -- for the search player: what a seat cannot see --------------------------------
    def determinize(self, seat: int, rng) -> SpelledState:
        """A clone in which each side's draw pile and the hands of its seats other than `seat` are
        re-dealt from one another (what a side owns is public; its order and who holds what is not)."""
        s = self.clone()
        for side, seats in enumerate(s.side_seats):
            others = [o for o in seats if o != seat]
            hands, rest = redeal(rng, list(s.pool[side]) + [u for o in others for u in s.hand[o]],
                                 [len(s.hand[o]) for o in others])
            for o, hand in zip(others, hands, strict=False):
                s.hand[o] = hand
            s.pool[side] = rest
        return s

    def check_invariants(self) -> None:
        """Every card in exactly one place, Health that adds up, only shields and totems in play,
        reserve vowels only in the reserve or in use. Set operations over the places; the culprit
        is searched only once something is wrong."""
        places: list[Sequence[int | None]] = [*self.hand, *self.inplay, *self.top, *self.pool, *self.discard,
                                              self.row, self.market_pool, self.reserve, self.scrapped, self.played]
        cards: set[int | None] = set()
        cards.update(*places)
        cards.discard(None)  # an empty market slot
        held = sum(map(len, places)) - self.row.count(None)
        if held != len(self.defs) or cards != self.cat.all_cards:
            seen = Counter(u for place in places for u in place if u is not None)
            lost = sorted(set(range(len(self.defs))) - set(seen))
            twice = sorted(u for u, n in seen.items() if n != 1)
            strange = sorted(set(seen) - set(range(len(self.defs))))
            raise InvariantError(f"cards lost {lost} or duplicated {twice}"
                                 + (f" or not in the game {strange}" if strange else ""))
        for side in range(len(self.health)):
            if self.health[side] != self.start_health[side] + self.healed[side] - self.damaged[side]:
                raise InvariantError(f"side {side} health {self.health[side]} does not add up")
        lasting = self.cat.lasting_cards
        if not all(map(lasting.issuperset, self.inplay)):
            raise InvariantError("a card in play is not a shield or totem")
        reserve = self.cat.reserve_cards
        if not reserve.issuperset(self.reserve):
            raise InvariantError("a non-reserve card is in the vowel reserve")
        if not reserve.isdisjoint(self.scrapped):
            raise InvariantError("a reserve vowel was scrapped instead of returning to the reserve")

    # -- chance --------------------------------------------------------------
    def _resolve_draw(self, uid: int) -> None:
        kind, who = self.draws.pop(0)
        if kind == "market":
            self.market_pool.remove(uid)
            self.row[who] = uid
            if self.phase == "setup" and self.defs[uid].cost >= self.setup_scrap_cost:
                self.row[who] = None
                self.scrapped.append(uid)
                self.draws.insert(0, ("market", who))
        else:
            pool = self.pool[self.side_of[who]]
            pool.remove(uid)
            self.hand[who].append(uid)

    def _settle(self) -> None:
        """Resolve what needs no choice: known draws, reshuffles, impossible draws, phase changes."""
        while self.winner_side is None:
            self._draw_known()
            if self.draws or not self._next_phase():
                return

    def _draw_known(self) -> None:
        """Draw while the card drawn is known (the top of a deck); stop at the first draw left to chance.
        An empty deck takes its discard pile, shuffled; a draw from nothing at all is dropped."""
        while self.draws:
            kind, who = self.draws[0]
            if kind == "market":
                if self.market_pool:
                    return
                self.draws.pop(0)  # the market deck is empty: the slot stays empty
                continue
            side = self.side_of[who]
            if self.top[side]:
                self.draws.pop(0)
                self.hand[who].append(self.top[side].pop())
                continue
            if not self.pool[side] and self.discard[side]:
                self.pool[side] = self.discard[side]  # shuffle the discard pile into a new deck
                self.discard[side] = []
            if self.pool[side]:
                return
            self.draws.pop(0)  # nothing left to draw

    def _next_phase(self) -> bool:
        """Move on from a phase that needs no choice now; False when a choice (or the game's end) waits."""
        if self.phase == "setup":
            first = self.order[0]
            self.to_drop = min(int(self.cat.rules.get("first_player_discards", 0)), len(self.hand[first]))
            self.phase = "setup-drop" if self.to_drop else "start"
        elif self.phase == "setup-drop" and self.to_drop == 0:
            self.phase = "start"
        elif self.phase == "start":
            side = self.side_of[self.seat]
            if self.forced[side] and self.hand[self.seat]:
                self.phase = "drop"
                return False
            self.forced[side] = 0
            self._recover()
            self.phase = "main"
        elif self.phase == "drop" and (self.forced[self.side_of[self.seat]] == 0 or not self.hand[self.seat]):
            self.phase = "start"
        elif self.phase == "drawn":
            self.turns += 1
            self.turn_index += 1
            self.seat = self.order[self.turn_index % len(self.order)]
            self.phase = "start"
        else:
            return False
        return True

    def _recover(self) -> None:
        """Phase 1: surviving shields and totems come back to their owner's hand."""
        seat = self.seat
        self.hand[seat].extend(self.inplay[seat])
        self.inplay[seat] = []

    # -- choices -------------------------------------------------------------
    def _act(self, action) -> None:
        named = typed(action)
        if named is None:
            raise IllegalAction(f"not an action: {action!r}")
        if self.phase in ("setup-drop", "drop"):
            if type(named) is not Drop:
                raise IllegalAction(f"{action!r}: a card from hand must be discarded first")
            self._drop(named)
        elif self.phase == "discard":
            if type(named) is Toss and named.card in self.hand[self.seat]:
                self._discard_more(named)
            elif type(named) is End:
                self._draw_phase(bool(named.keep))
            else:
                raise IllegalAction(f"{action!r}: the discard phase takes ('toss', card) or ('end', keep)")
        elif self.phase != "main":
            raise IllegalAction(f"{action!r} outside the main phase")
        else:
            play = _MAIN_PHASE.get(type(named))
            if play is None:
                raise IllegalAction(f"unknown action {action!r}")
            play(self, named)

    # -- one method per kind of action (see actions.py) ----------------------------------
    def _drop(self, action: Drop) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        hand = self.hand[seat]
        if action.card not in hand:
            raise IllegalAction(f"{action!r}: a card from hand must be discarded first")
        hand.remove(action.card)
        self.discard[side].append(action.card)
        if self.phase == "setup-drop":
            self.to_drop -= 1
        else:
            self.forced[side] -= 1

    def _discard_more(self, action: Toss) -> None:
        self.hand[self.seat].remove(action.card)
        self.discard[self.side_of[self.seat]].append(action.card)

    def _play_fragment(self, action: Fragment) -> None:
        uid = self._take_from_hand(action.card)
        self.played.append(uid)
        self.figures["fragments"] += 1
        self._gain(self.defs[uid].fragment, None)

    def _cast_spell(self, action: Spell) -> None:
        uids = tuple(action.cards)
        hand = self.hand[self.seat]
        if len(uids) < self.cat.min_letters or len(set(uids)) != len(uids) or any(u not in hand for u in uids):
            raise IllegalAction(f"{action!r}: a spell needs {self.cat.min_letters}+ distinct cards from hand")
        if letter_key("".join(self.defs[u].letter for u in uids)) not in self.cat.keys:
            raise IllegalAction(f"{action!r}: those letters make no word")
        for u in uids:
            hand.remove(u)
            self.played.append(u)
            self.in_spell.add(u)
        self.figures["spells"] += 1
        self.figures["spell_letters"] += len(uids)
        index = len(self.attacks)
        self.attacks.append(sum(self.defs[u].damage for u in uids))
        self.attack_owed.append(False)
        for u in uids:
            d = self.defs[u]
            self._gain(d.fragment, index)
            for box in d.spelled:
                self._gain(box, index)
        if len(uids) >= self.bonus_letters:
            self.figures["spelled_bonus"] += 1
            self.attacks.append(self.bonus_damage)
            self.attack_owed.append(False)

    def _scrap_played(self, action: ScrapPlayed) -> None:
        uid = action.card
        scrap = self.defs[uid].scrap if uid in self.played else None
        if scrap is None:
            raise IllegalAction(f"{action!r}: only a card played this turn with a scrap box")
        self.played.remove(uid)
        self.in_spell.discard(uid)
        self._to_scrap(uid)
        self.figures["scrap_abilities"] += 1
        self._gain(scrap, None)

    def _buy(self, action: Buy) -> None:
        uid = action.card
        if not self._in_shop(uid) or self.defs[uid].cost > self.energy:
            raise IllegalAction(f"{action!r}: not in the market row or reserve, or too dear")
        self.energy -= self.defs[uid].cost
        self._acquire(uid)

    def _take_free(self, action: TakeFree) -> None:
        uid = action.card
        fits = [m for m in self.free if m >= self.defs[uid].cost]
        if not self._in_shop(uid) or not fits:
            raise IllegalAction(f"{action!r}: no free acquisition covers it")
        self.free.remove(min(fits))
        self._acquire(uid)

    def _scrap(self, action: Scrap) -> None:
        uid, side = action.card, self.side_of[self.seat]
        hand = self.hand[self.seat]
        if uid in hand and self.tokens["scrap_hand"]:
            self.tokens["scrap_hand"] -= 1
            hand.remove(uid)
            name = "scrap_hand"
        elif uid in self.discard[side] and self.tokens["scrap_discard"]:
            self.tokens["scrap_discard"] -= 1
            self.discard[side].remove(uid)
            name = "scrap_discard"
        elif uid in self.row and self.tokens["scrap_market"]:
            self.tokens["scrap_market"] -= 1
            self._leave_row(uid)
            name = "scrap_market"
        else:
            raise IllegalAction(f"{action!r}: no scrap ability reaches that card")
        self.owed[name] = min(self.owed[name], self.tokens[name])
        self.figures["scraps"] += 1
        self._to_scrap(uid)

    def _force(self, action: Force) -> None:
        if not self.tokens["discard"] or action.side not in self.enemies(self.side_of[self.seat]):
            raise IllegalAction(f"{action!r}")
        self.tokens["discard"] -= 1
        self.owed["discard"] = min(self.owed["discard"], self.tokens["discard"])
        self.forced[action.side] += 1
        self.figures["forced_discards"] += 1

    def _destroy_lasting(self, action: Destroy) -> None:
        uid = action.card
        owner = self.owner(uid)
        if not self.tokens["destroy"] or owner is None or self.side_of[owner] == self.side_of[self.seat]:
            raise IllegalAction(f"{action!r}: no destroy ability, or not an opponent's shield or totem")
        self.tokens["destroy"] -= 1
        self.owed["destroy"] = min(self.owed["destroy"], self.tokens["destroy"])
        self._destroy(uid, owner)

    def _attack(self, action: Attack) -> None:
        i, target, side = action.attack, action.target, self.side_of[self.seat]
        if not (0 <= i < len(self.attacks)) or target not in self.targets(side):
            raise IllegalAction(f"{action!r}: no such attack or target")
        amount = self.attacks.pop(i)
        self.attack_owed.pop(i)
        self.figures["damage_dealt"] += amount
        if target < 0:
            victim = -1 - target
            self.health[victim] -= amount
            self.damaged[victim] += amount
            self.turn_damage += amount
            self.figures["damage_to_health"] += amount
            if self.health[victim] <= 0:
                self._end_of_turn_stats()
                self.winner_side = side
        else:
            self.hits[target] = self.hits.get(target, 0) + amount
            self.figures["damage_to_cards"] += amount
            if self.hits[target] >= self.defs[target].strength:
                owner = self.owner(target)
                assert owner is not None  # a card that can be attacked is in play
                self._destroy(target, owner)

    def _end(self, action: End) -> None:
        if self.owes():
            raise IllegalAction(f"{action!r}: a partly used box must be used whole while it can")
        self._end_main()
        self._draw_phase(bool(action.keep))

    def _toss(self, action: Toss) -> None:
        hand = self.hand[self.seat]
        if self.owes() or action.card not in hand:
            raise IllegalAction(f"{action!r}: not a card in hand, or a partly used box is still owed")
        self._end_main()
        self.phase = "discard"
        hand.remove(action.card)
        self.discard[self.side_of[self.seat]].append(action.card)

    # -- what a seat sees (spellpress play) -------------------------------------------
    def card(self, uid: int) -> CardRef:
        d = self.defs[uid]
        return CardRef(d.origin, d.key)

    def observation(self, seat: int) -> Observation:
        cards = lambda uids: tuple(self.card(u) for u in uids)  # noqa: E731
        zones = [Zone("market", "market row", "row", None, cards(u for u in self.row if u is not None)),
                 Zone("market-deck", "market deck", "pile", None, (), len(self.market_pool), "market"),
                 Zone("reserve", "reserve", "row", None, cards(sorted(set(self.reserve), key=lambda u: self.defs[u].key))),
                 Zone("scrapped", "scrapped", "pile", None, cards(self.scrapped))]
        if self.played:
            zones.append(Zone("played", "played this turn", "row", self.seat, cards(self.played)))
        facts = []
        for side, seats in enumerate(self.side_seats):
            names = " and ".join(f"seat {s + 1}" for s in seats)
            facts.append(f"side {side + 1} ({names}): {self.health[side]} health")
            zones.append(Zone(f"deck:{side}", f"side {side + 1}'s deck", "pile", None, (),
                              len(self.top[side]) + len(self.pool[side]), "starter"))
            zones.append(Zone(f"discard:{side}", f"side {side + 1}'s discard pile", "pile", None, cards(self.discard[side])))
        for other in range(self.players):
            zones.append(hand_zone(other, seat, [self.card(u) for u in self.hand[other]], "starter"))
            if self.inplay[other]:
                zones.append(Zone(f"inplay:{other}", f"seat {other + 1}'s shields and totems", "row", other,
                                  cards(self.inplay[other])))
        if self.phase == "main" and self.current_player() >= 0:
            held = ", ".join(f"{name} {n}" for name, n in self.tokens.items() if n)
            facts.append(f"energy {self.energy}" + (f"; {held}" if held else ""))
            if self.attacks:
                facts.append("attacks to place: " + ", ".join(str(a) for a in self.attacks))
        return Observation(seat, to_move(self.current_player()), self.phase, tuple(self.returns()), tuple(zones), tuple(facts))

    def _target_name(self, target: int) -> str:
        if target < 0:
            return f"side {-target}"
        return f"seat {(self.owner(target) or 0) + 1}'s {self._card_name(target)}"

    def _card_name(self, uid: int) -> str:
        """A card as the table names it: its letter, a shield or totem with its strength."""
        d = self.defs[uid]
        return f"{d.kind.capitalize()} {d.letter.upper()} ({d.strength})" if d.kind in LASTING else d.letter.upper()

    def action_to_string(self, action) -> str:
        named, name = typed(action), self._card_name
        if type(named) is Buy:
            return f"buy {name(named.card)} for {self.defs[named.card].cost} energy"
        if type(named) is Spell:
            return "spell " + (self.action_word(named) or "".join(self.defs[u].letter for u in named.cards)).upper()
        if type(named) is End:
            return "end the turn, keeping the hand" if named.keep else "end the turn"
        if type(named) is Attack:
            return f"attack {self._target_name(named.target)} with {self.attacks[named.attack]} damage"
        if type(named) is Force:
            return f"make side {named.side + 1} discard"
        if type(named) is Destroy:
            return f"destroy {self._target_name(named.card)}"
        if type(named) is Fragment:
            return f"play {name(named.card)} as a fragment"
        if isinstance(named, (Drop, Toss, ScrapPlayed, TakeFree, Scrap)):
            return f"{_SAID[type(named)]} {name(named.card)}"
        return super().action_to_string(action)

    def action_word(self, action, typed_word: str | None = None) -> str | None:
        named = typed(action)
        if type(named) is not Spell:
            return None
        words = self.cat.keys.get(letter_key("".join(self.defs[u].letter for u in named.cards)), ())
        return typed_word if typed_word in words else next(iter(words), None)

    def action_cards(self, action) -> tuple[CardRef, ...]:
        named = typed(action)
        if type(named) is Spell:
            return tuple(self.card(u) for u in named.cards)
        if isinstance(named, (Drop, Toss, Fragment, ScrapPlayed, Buy, TakeFree, Scrap, Destroy)):
            return (self.card(named.card),)
        return ()

    def _take_from_hand(self, uid: int) -> int:
        hand = self.hand[self.seat]
        if uid not in hand:
            raise IllegalAction(f"card {uid} is not in hand")
        hand.remove(uid)
        return uid

    def _in_shop(self, uid: int) -> bool:
        return uid in self.row or uid in self.reserve

    def _gain(self, box: tuple, spell: int | None) -> None:
        """Gain one ability box into the pool; energy, heal and draw are used at once,
        which makes the box's choices owed (see the module doc)."""
        seat, side = self.seat, self.side_of[self.seat]
        partly_used = len(box) > 1 and any(name in AT_ONCE for name, _ in box)
        for name, amount in box:
            if name == "energy":
                self.energy += amount
                self.figures["energy"] += amount
            elif name == "heal":
                self.health[side] += amount
                self.healed[side] += amount
                self.figures["healed"] += amount
            elif name == "draw":
                self.draws += [("hand", seat)] * amount
            elif name == "damage":
                if spell is None:
                    self.attacks.append(amount)
                    self.attack_owed.append(partly_used)
                else:
                    self.attacks[spell] += amount
                    self.attack_owed[spell] = self.attack_owed[spell] or partly_used
            elif name == "acquire":
                self.free.append(amount)
            else:
                self.tokens[name] += amount
                if partly_used:
                    self.owed[name] += amount

    def _acquire(self, uid: int) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        if uid in self.reserve:
            self.reserve.remove(uid)
        else:
            self._leave_row(uid)
        if self.tokens["to_hand"]:
            self.tokens["to_hand"] -= 1
            self.hand[seat].append(uid)
        elif self.tokens["to_top"]:
            self.tokens["to_top"] -= 1
            self.top[side].append(uid)
        else:
            self.discard[side].append(uid)
        d = self.defs[uid]
        if d.origin == "market":
            self.acquired.setdefault(d.key, set()).add(seat)
        self.figures["acquired"] += 1

    def _leave_row(self, uid: int) -> None:
        slot = self.row.index(uid)
        self.row[slot] = None
        self.draws.append(("market", slot))

    def _to_scrap(self, uid: int) -> None:
        if self.defs[uid].origin == "reserve":
            self.reserve.append(uid)  # a scrapped reserve vowel returns to the reserve
        else:
            self.scrapped.append(uid)

    def _destroy(self, uid: int, owner: int) -> None:
        self.inplay[owner].remove(uid)
        self.discard[self.side_of[owner]].append(uid)
        self.hits.pop(uid, None)
        self.figures["destroyed"] += 1

    def _end_main(self) -> None:
        """The main phase ends: played cards go to discard (or stay in play), unused abilities are lost."""
        seat, side = self.seat, self.side_of[self.seat]
        for uid in self.played:
            if uid in self.in_spell and self.defs[uid].kind in LASTING:
                self.inplay[seat].append(uid)  # played in a spell: stays in play
            else:
                self.discard[side].append(uid)
        self.played = []
        self.in_spell = set()
        self.energy = 0
        self.tokens = dict.fromkeys(TOKENS, 0)
        self.owed = dict.fromkeys(TOKENS, 0)
        self.free = []
        self.attacks = []
        self.attack_owed = []
        self.hits = {}
        self._end_of_turn_stats()

    def _draw_phase(self, keep: bool) -> None:
        """The rest of the discard phase (keep or discard the cards left in hand), then draw."""
        seat, side = self.seat, self.side_of[self.seat]
        if not keep:
            self.discard[side].extend(self.hand[seat])
            self.hand[seat] = []
        self.draws += [("hand", seat)] * max(0, self.hand_size - len(self.hand[seat]))
        self.phase = "drawn"

    def _end_of_turn_stats(self) -> None:
        self.damage_by_turn.append(self.turn_damage)
        self.turn_damage = 0


# the main phase's actions: what each kind does
_MAIN_PHASE: dict[type, Callable[[SpelledState, Any], None]] = {Fragment: SpelledState._play_fragment,
                                                                Spell: SpelledState._cast_spell,
               ScrapPlayed: SpelledState._scrap_played, Buy: SpelledState._buy, TakeFree: SpelledState._take_free,
               Scrap: SpelledState._scrap, Force: SpelledState._force, Destroy: SpelledState._destroy_lasting,
               Attack: SpelledState._attack, End: SpelledState._end, Toss: SpelledState._toss}
_SAID = {Drop: "discard", Toss: "discard", ScrapPlayed: "scrap", TakeFree: "take for free", Scrap: "scrap"}
