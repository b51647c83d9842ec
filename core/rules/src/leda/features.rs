//! Features of a seat's view and of its decisions (the twin of `engine/leda/features.py`).

use crate::features::Featurize;
use crate::leda::game::Leda;
use crate::leda::LedaState;
use crate::leda::actions::Action;

impl Featurize for Leda {
    const FEATURES_VERSION: u32 = 0;

    fn feature_size(&self, _players: usize) -> usize {
        0
    }

    fn features(&self, _state: &LedaState, _seat: usize, out: &mut Vec<f32>) {
        out.clear();
    }

    fn action_feature_size(&self) -> usize {
        0
    }

    fn action_features(&self, _state: &LedaState, _action: Action, _out: &mut Vec<u32>) {}
}
