// The New game dialog: its fields for a game's options, and the setup they give.

import {pageError} from "/static/api.js";
import {$, el, fillSelect} from "/static/ui.js";

// Fills the dialog's fields for a game described by `info` (ListGames' GameInfo), with the
// values of `current` (a setup) where given.
export function fillSetupOptions(info, current) {
  const players = $("setup-players");
  players.min = info.min_players;
  players.max = info.max_players;
  players.value = current?.players ?? info.min_players;
  players.disabled = info.min_players === info.max_players;
  $("setup-seed").value = current?.seed ?? 1;
  $("setup-manual-chance").checked = current?.manualChance ?? false;
  const described = info.options_json || {};
  const box = $("setup-options");
  box.replaceChildren();
  for (const [name, option] of Object.entries(described)) {
    if (name === "players") continue;
    if (Array.isArray(option.choices)) {
      box.append(optionSelect(name, option.choices, current?.options?.[name] ?? option.default));
    } else if (Array.isArray(option.values) && String(option.type).startsWith("list of 2")) {
      const chosen = current?.options?.[name] || [];
      for (const seat of [0, 1]) {
        box.append(optionSelect(`${name}.${seat}`, ["random", ...option.values], chosen[seat] || "random",
                                `${name.replace(/s$/, "")} of seat ${seat}`));
      }
    } else if (name === "first_player") {
      const seats = Array.from({length: info.max_players}, (_, i) => String(i));
      box.append(optionSelect(name, ["random", ...seats], String(current?.options?.[name] ?? "random"), "first player"));
    }
  }
}

function optionSelect(name, values, chosen, label = name) {
  const select = el("select", {name, dataset: {option: name, testid: `setup-${name}`}});
  fillSelect(select, values.map(String), String(chosen));
  return el("label", {}, `${label} `, select);
}

// {game, setup} as the dialog gives them; a pageError for an inconsistent choice.
export function readSetup() {
  const game = $("setup-game").value;
  const options = {};
  const pairs = {};
  for (const select of $("setup-options").querySelectorAll("select")) {
    const [name, seat] = select.dataset.option.split(".");
    if (seat !== undefined) {
      (pairs[name] ||= [])[Number(seat)] = select.value;
    } else if (select.value !== "random") {
      options[name] = name === "first_player" ? Number(select.value) : select.value;
    }
  }
  for (const [name, chosen] of Object.entries(pairs)) {
    if (chosen.every((v) => v !== "random")) options[name] = chosen;
    else if (chosen.some((v) => v !== "random")) throw pageError("SETUP", `choose both ${name} or neither`, name);
  }
  const extra = $("setup-extra").value.trim();
  if (extra) {
    try {
      Object.assign(options, JSON.parse(extra));
    } catch (error) {
      throw pageError("SETUP", `more options: not JSON (${error.message})`, "options");
    }
  }
  return {
    game,
    setup: {
      players: Number($("setup-players").value),
      options,
      seed: Math.max(0, Math.floor(Number($("setup-seed").value) || 0)),
      manualChance: $("setup-manual-chance").checked,
    },
  };
}
