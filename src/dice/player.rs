//! Built-in players for testing and as baselines: random, and one-ply greedy.

use super::game::DiceGame;
use super::roll::{Outcomes, Roll};
use super::rules::Rules;
use super::status::DiceStatus;
use crate::moves::{Move, MoveList};
use crate::types::{Color, PieceType};

/// A small deterministic generator (SplitMix64): games replay exactly from their seed.
#[derive(Copy, Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// A side's clock, in milliseconds: the time left now (negative is read as 0), the
/// increment added after each of its turns, and the turns to the next time control (0:
/// none, the game is played to its end on this clock). The Dice Chess engine's time
/// manager reads it: [`crate::dice::search::DiceLimits::on_clock`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DiceClock {
    /// Time left on the mover's clock.
    pub time_ms: i64,
    /// Added after each turn.
    pub inc_ms: i64,
    /// Turns to the next time control (0: none).
    pub movestogo: u32,
}

/// A player: picks one of the moves the dice allow.
pub trait Player {
    /// One of `moves` (non-empty) for `game`.
    fn choose(&mut self, game: &DiceGame, moves: &[Move]) -> Move;

    /// The mover's clock for the next [`Player::choose`], in milliseconds (`None`: no
    /// clock): the time left now, this turn's earlier micro-moves already taken off, and the
    /// increment added after the turn. A player that manages its time plays to it; the
    /// default ignores it (the built-in players take no time to speak of).
    fn set_clock(&mut self, clock: Option<DiceClock>) {
        let _ = clock;
    }
}

/// Picks uniformly at random.
#[derive(Clone, Debug)]
pub struct RandomPlayer(pub Rng);

impl Player for RandomPlayer {
    fn choose(&mut self, _game: &DiceGame, moves: &[Move]) -> Move {
        moves[self.0.below(moves.len() as u64) as usize]
    }
}

/// One ply greedy: the move after which the mover's material minus the opponent's is
/// largest, a king capture worth everything, less the exact chance that the opponent's next
/// roll lets it capture the mover's king (worth 50 pawns); ties broken at random. (A
/// three-dice micro-move is judged alone, as if the turn ended after it.)
#[derive(Clone, Debug)]
pub struct GreedyPlayer(pub Rng);

const VALUES: [i32; 7] = [0, 100, 300, 300, 500, 900, 0];

fn material(game: &DiceGame, c: Color) -> i32 {
    (1..=6u8)
        .map(|t| {
            let kind = PieceType::new(t).unwrap_or(PieceType::NONE);
            VALUES[t as usize] * game.position().pieces(c, kind).count() as i32
        })
        .sum()
}

/// The chance, over the opponent's next roll, that some die lets a piece attacking `us`'s
/// king take it (two dice: doubles move anything; one die: the faces the die can show).
pub fn king_capture_chance(game: &DiceGame, us: Color) -> f64 {
    let pos = game.position();
    let attackers = pos.attackers_to(pos.king_square(us)) & pos.color_pieces(us.flip());
    if attackers.is_empty() {
        return 0.0;
    }
    let kinds = attackers
        .iter()
        .fold(0u8, |m, sq| m | pos.piece_on(sq).kind().mask_bit());
    let rules = game.rules();
    let outcomes = match rules {
        Rules::OneDie => {
            // The faces the opponent's die could show: its types with a move, at least the
            // attackers' (which can take the king).
            let mut g = game.clone();
            if g.side_to_move() == us {
                return (kinds.count_ones() as f64 / 6.0).min(1.0);
            }
            g.h.dice = Roll::EMPTY;
            Outcomes::one_die(g.movable_types())
        }
        r => Outcomes::fixed(r),
    };
    let hit: u32 = outcomes
        .as_slice()
        .iter()
        .filter(|o| o.roll.mask() & kinds != 0 || (rules == Rules::TwoDice && o.roll.is_doubles()))
        .map(|o| o.weight)
        .sum();
    hit as f64 / outcomes.denominator() as f64
}

/// The score of `game` for `us`, in centipawns.
fn score(game: &DiceGame, us: Color) -> f64 {
    if let DiceStatus::Won { winner, .. } = game.status() {
        return if winner == us { 100_000.0 } else { -100_000.0 };
    }
    (material(game, us) - material(game, us.flip())) as f64
        - 5_000.0 * king_capture_chance(game, us)
}

impl Player for GreedyPlayer {
    fn choose(&mut self, game: &DiceGame, moves: &[Move]) -> Move {
        choose_one_ply(game, moves, &mut self.0, score)
    }
}

/// One ply: the move of `moves` (non-empty) after which `score(game, mover)` is largest, ties
/// broken by `rng` (one draw). The choice of the one-ply players.
pub fn choose_one_ply(
    game: &DiceGame,
    moves: &[Move],
    rng: &mut Rng,
    mut score: impl FnMut(&DiceGame, Color) -> f64,
) -> Move {
    let us = game.side_to_move();
    let mut best = f64::MIN;
    let mut picks = MoveList::new();
    let mut g = game.clone();
    for &m in moves {
        let u = g.make_move_unchecked(m);
        let s = score(&g, us);
        g.unmake_move_unchecked(m, &u);
        if s > best {
            best = s;
            picks.clear();
        }
        if s == best {
            picks.push(m);
        }
    }
    picks.as_slice()[rng.below(picks.len() as u64) as usize]
}

/// The built-in players by name (`random`, `greedy`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// [`RandomPlayer`].
    Random,
    /// [`GreedyPlayer`].
    Greedy,
}

impl PlayerKind {
    /// The name (`random`, `greedy`).
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
        }
    }

    /// The player with this name.
    pub fn from_name(s: &str) -> Option<PlayerKind> {
        match s {
            "random" => Some(PlayerKind::Random),
            "greedy" => Some(PlayerKind::Greedy),
            _ => None,
        }
    }

    /// A player of this kind drawing from `rng`.
    pub fn player(self, rng: Rng) -> Box<dyn Player> {
        match self {
            PlayerKind::Random => Box::new(RandomPlayer(rng)),
            PlayerKind::Greedy => Box::new(GreedyPlayer(rng)),
        }
    }
}

/// Plays one whole turn of `game`: rolls the dice from `dice` by the outcomes' exact
/// weights ([`sample_roll`]), then lets `player` choose every move of the turn (every
/// micro-move in three dice), passing when the roll allows nothing. Returns the roll, or
/// `None` (the game unchanged) when the game awaits no roll (it is over).
///
/// ```
/// use chesscore::dice::player::{play_turn, RandomPlayer, Rng};
/// use chesscore::dice::{DiceGame, Rules};
///
/// let mut game = DiceGame::new(Rules::ThreeDice);
/// let (mut player, mut dice) = (RandomPlayer(Rng(1)), Rng(2));
/// while play_turn(&mut game, &mut player, &mut dice).is_some() {}
/// assert!(game.status().is_over());
/// ```
pub fn play_turn(
    game: &mut DiceGame,
    player: &mut dyn Player,
    dice: &mut Rng,
) -> Option<super::Roll> {
    let roll = sample_roll(game, dice)?;
    game.set_roll(roll).ok()?;
    while game.phase() == super::Phase::AwaitingMove {
        let l = game.moves();
        let m = if l.is_empty() {
            Move::NONE
        } else {
            player.choose(game, l.as_slice())
        };
        if game.make_move(m).is_err() {
            break;
        }
    }
    Some(roll)
}

/// Rolls the dice for `game` (awaiting a roll) by the outcomes' exact weights: `None` when
/// the game awaits no roll.
pub fn sample_roll(game: &DiceGame, rng: &mut Rng) -> Option<super::Roll> {
    let o = game.outcomes();
    let mut x = rng.below(o.denominator() as u64) as u32;
    for oc in o.as_slice() {
        if x < oc.weight {
            return Some(oc.roll);
        }
        x -= oc.weight;
    }
    None
}
