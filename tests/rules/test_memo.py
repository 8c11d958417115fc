"""Per-game caches (generator/model/memo.py): every game object gets its own engine tables,
and no cache keeps a game alive."""

from __future__ import annotations

import copy
import gc
import pickle
import weakref
from pathlib import Path

import pytest

from spellpress.layout.ops import FaceLayout
from spellpress.load.game import load_game
from spellpress.render.keys import face_key
from spellpress.rules.evocabulary.content import content_for
from spellpress.rules.plugins import rules_for
from spellpress.simulate.variants import apply_variant

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["evocabulary", "lost-words", "magic-spell", "spelled", "word-to-the-wise", "word-rummy", "un-mot-au-sage"]


@pytest.fixture(scope="module")
def evocabulary():
    return load_game(ROOT / "cards" / "evocabulary")


@pytest.mark.slow
def test_hundreds_of_variants_built_in_a_loop_each_get_their_own_data(evocabulary):
    # each variant is dropped before the next is built, so its address is free for reuse:
    # a cache keyed by id(game) answered with another variant's tables here
    wrong = []
    for n in range(240):
        hand_size = 5 + n % 4
        variant = apply_variant(evocabulary, (("rules.hand_size", hand_size),), {"hand_size"})
        rules = rules_for(variant)
        state = rules.new_state(variant, 2)
        if content_for(variant, "A").hand_size != hand_size or state.content.hand_size != hand_size:
            wrong.append((n, hand_size, content_for(variant, "A").hand_size))
        del variant, state
    assert wrong == []


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.slow
def test_no_engine_cache_keeps_a_game_alive(game_id):
    game = load_game(ROOT / "cards" / game_id)
    rules = rules_for(game)
    state = rules.new_state(game, game.spec.players.min)
    assert state.current_player() is not None
    alive = weakref.ref(game)
    del game, state
    gc.collect()
    assert alive() is None


def test_a_copy_of_a_game_does_not_carry_its_tables(evocabulary):
    content = content_for(evocabulary, "A")
    for twin in (pickle.loads(pickle.dumps(evocabulary)), copy.deepcopy(evocabulary)):
        assert twin == evocabulary
        assert content_for(twin, "A") is not content
    assert content_for(evocabulary, "A") is content  # the game itself keeps its own


@pytest.mark.slow
def test_face_keys_live_on_their_face():
    faces = [FaceLayout(63.0 + n, 88.0, 3.0, ()) for n in range(3)]
    keys = [face_key(face) for face in faces]
    assert len(set(keys)) == 3 and face_key(FaceLayout(63.0, 88.0, 3.0, ())) == keys[0]
    alive = weakref.ref(faces[0])
    del faces
    gc.collect()
    assert alive() is None
