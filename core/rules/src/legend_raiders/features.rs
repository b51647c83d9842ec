//! Features of a seat's view and of its decisions (the twin of `engine/legend_raiders/features.py`).

use crate::features::Featurize;
use crate::legend_raiders::game::LegendRaiders;
use crate::legend_raiders::RaidersState;
use crate::legend_raiders::Action;

impl Featurize for LegendRaiders {
    const FEATURES_VERSION: u32 = 0;

    fn feature_size(&self, _players: usize) -> usize {
        0
    }

    fn features(&self, _state: &RaidersState, _seat: usize, out: &mut Vec<f32>) {
        out.clear();
    }

    fn action_feature_size(&self) -> usize {
        0
    }

    fn action_features(&self, _state: &RaidersState, _action: Action, _out: &mut Vec<u32>) {}
}
