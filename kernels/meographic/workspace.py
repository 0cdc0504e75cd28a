"""The Meographic kernels' arrays: `Setup` (the rules as arrays, the seats' bots) and `State` (one game, reset
by init), allocated once per chunk in Python."""

from collections import namedtuple

import numpy as np

from kernels.meographic.engine import (
    GP,
    MAX_ACTIONS,
    MAX_CLASSES,
    MAX_OPEN,
    MAX_PLAYERS,
    MAX_TYPES,
    PILES,
    ROUNDS,
    ST_SIZE,
)

N_PARAMS = 8  # a bot's parameter vector

Setup = namedtuple("Setup", [
    "cfg",  # int64 [CFG_SIZE]
    "tile_type", "tile_pts",  # int64 [n_tiles]
    "m_points",  # int64 [n_missions]
    "win_start", "win_count",  # int32 [n_missions, n_types] the windows of (card, new tile's type)
    "win_len",  # int32 [W] other cells of a window
    "win_cells",  # int32 [W, MAX_CELLS - 1, 3] (dr, dc, type) of each, relative to the new tile
    "type_total",  # int64 [MAX_TYPES] tiles of each type in the set
    "type_pt",  # int64 [MAX_TYPES] a type's median points (the planner's guess of a blind tile)
    "class_total",  # int64 [MAX_CLASSES] tiles of each class (engine.N_POINTS) in the set
    "class_tile",  # int64 [MAX_CLASSES] the lowest tile id of each class (a determinized bag holds these)
    "bots",  # int64 [MAX_PLAYERS] each seat's bot (kernels.meographic.bots BOT_*)
    "params",  # float64 [MAX_PLAYERS, N_PARAMS]
])

State = namedtuple("State", [
    "st",  # int64 [ST_SIZE] scalars (ST_*)
    "bag",  # int64 [n_tiles] the bag's order, drawn from st[ST_BAG_POS] on
    "mcards",  # int64 [n_missions] the card pile's order, from st[ST_PILE_POS] on
    "col_top", "col_under",  # int64 [n_missions + 1] the mission row's columns: top card, half-covered (-1)
    "piles",  # int64 [PILES, n_tiles] each slot's tiles, bottom first
    "pile_n",  # int64 [PILES]
    "hands",  # int64 [MAX_PLAYERS, 2] hand, explored tile (-1 none)
    "btype", "bpts",  # int8 [MAX_PLAYERS, GP * GP] each area: type (-1 empty) and points per cell
    "placed",  # int64 [MAX_PLAYERS, ROUNDS + 1] cells in placement order
    "n_placed",  # int64 [MAX_PLAYERS]
    "bbox",  # int64 [MAX_PLAYERS, 4] rows min, max, columns min, max of each area
    "open_at",  # int64 [MAX_PLAYERS, MAX_OPEN] each area's legal cells, ascending (engine.open_around)
    "n_open",  # int64 [MAX_PLAYERS]
    "is_open",  # int8 [MAX_PLAYERS, GP * GP] the cell is in open_at
    "mmask",  # int64 [MAX_PLAYERS, GP * GP, MAX_TYPES] per open cell and type: the cards a tile there completes
    "mflag",  # int8 [MAX_PLAYERS, GP * GP] the cell has a mask entry this game
    "mtouched",  # int64 [MAX_PLAYERS, GP * GP] those cells, to clear at the next init
    "n_mtouched",  # int64 [MAX_PLAYERS]
    "gone",  # int64 [MAX_TYPES] tiles of each type placed by anyone or discarded (public)
    "points",  # int64 [MAX_PLAYERS, 4] points by source (P_*)
    "completed", "revealed",  # int64 [n_missions] per card: scorings, turned up (0/1)
    "cells",  # int64 [MAX_OPEN] scratch: open cells
    "values",  # float64 [MAX_ACTIONS] scratch: a bot's value per action
    "chance",  # float64 [MAX_TYPES] scratch: the planner's chance of meeting each type
    "cand",  # int64 [PILES + 1, 5] scratch: the greedy's tiles (type, points, best points, open cell index, slot)
    "actions",  # int64 [MAX_ACTIONS, 4]
    "discards",  # int64 [n_tiles] the solo discards in order (face up)
    "pool",  # int64 [n_tiles] scratch: the rollout's unseen tiles, shuffled
    "seen",  # int64 [MAX_CLASSES] scratch: the rollout's unseen tiles per class
    "sums",  # int64 [MAX_ACTIONS] scratch: the rollout's final points per candidate, summed over continuations
    "picks",  # int64 [MAX_ACTIONS] scratch: the rollout's candidates (action indices)
    "deck_rng", "rng", "roll_rng", "sample_rng",  # uint64 [2] the streams: deck (cards, bag), policy, rollout;
    # sample_rng: one continuation's shuffle
    "row",  # int64 [n_cols] one game's result columns
    "scored",  # int64 [MAX_PLAYERS] per seat a bit per card it has scored (the rule card_scores_once)
])


def new_state(n_tiles: int, n_missions: int, n_cols: int) -> State:
    btype = np.full((MAX_PLAYERS, GP * GP), -1, np.int8)
    return State(np.zeros(ST_SIZE, np.int64), np.zeros(n_tiles, np.int64), np.zeros(n_missions, np.int64),
                 np.zeros(n_missions + 1, np.int64), np.zeros(n_missions + 1, np.int64),
                 np.zeros((PILES, n_tiles), np.int64), np.zeros(PILES, np.int64),
                 np.full((MAX_PLAYERS, 2), -1, np.int64), btype, np.zeros_like(btype),
                 np.zeros((MAX_PLAYERS, ROUNDS + 1), np.int64), np.zeros(MAX_PLAYERS, np.int64),
                 np.zeros((MAX_PLAYERS, 4), np.int64),
                 np.zeros((MAX_PLAYERS, MAX_OPEN), np.int64), np.zeros(MAX_PLAYERS, np.int64),
                 np.zeros((MAX_PLAYERS, GP * GP), np.int8),
                 np.zeros((MAX_PLAYERS, GP * GP, MAX_TYPES), np.int64), np.zeros((MAX_PLAYERS, GP * GP), np.int8),
                 np.zeros((MAX_PLAYERS, GP * GP), np.int64), np.zeros(MAX_PLAYERS, np.int64),
                 np.zeros(MAX_TYPES, np.int64), np.zeros((MAX_PLAYERS, 4), np.int64),
                 np.zeros(n_missions, np.int64), np.zeros(n_missions, np.int64), np.zeros(MAX_OPEN, np.int64),
                 np.zeros(MAX_ACTIONS, np.float64), np.zeros(MAX_TYPES, np.float64),
                 np.zeros((PILES + 1, 5), np.int64),
                 np.zeros((MAX_ACTIONS, 4), np.int64), np.zeros(n_tiles, np.int64), np.zeros(n_tiles, np.int64),
                 np.zeros(MAX_CLASSES, np.int64), np.zeros(MAX_ACTIONS, np.int64), np.zeros(MAX_ACTIONS, np.int64),
                 np.zeros(2, np.uint64), np.zeros(2, np.uint64), np.zeros(2, np.uint64), np.zeros(2, np.uint64),
                 np.zeros(n_cols, np.int64), np.zeros(MAX_PLAYERS, np.int64))
