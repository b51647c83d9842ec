// Continuous analysis: while it is on, the shown position is analysed by one AnalyzeStream,
// aborted and started again whenever the position changes (a step, a move played, a move taken
// back), until it is stopped. "Infinite" searches on and on: when the server's bound ends one
// search, the next grows the same tree (the request's session_key).

import {analyzeStream} from "/static/api.js";

const SETTLE_MS = 120;  // a position shown for less than this (keys held down) is not analysed
let sessions = 0;

export class Follower {
  // `target()` gives what to analyse now, {request, entry, infinite} (an AnalyzeRequest, the
  // history entry it is of, whether to search on without end), or {idle: "why not"};
  // onStart(run), onPartial(run, analysis), onIdle(reason) and onError(error) report.
  constructor({target, onStart, onPartial, onIdle, onError}) {
    Object.assign(this, {target, onStart, onPartial, onIdle, onError});
    this.on = false;
    this.run = null;
    this.timer = null;
    this.subject = null;  // the entry analysed last (running, done or idle)
  }

  start() {
    this.on = true;
    this.restart(0);
  }

  stop() {
    this.on = false;
    this.subject = null;
    this.abort();
  }

  // The position shown is `entry`: analyse it unless it is the one analysed already.
  follow(entry) {
    if (!this.on || entry === this.subject) return;
    this.subject = entry;
    this.abort();
    this.timer = setTimeout(() => this.begin(), SETTLE_MS);
  }

  // Analyse the shown position again (the settings changed).
  restart(delay = SETTLE_MS) {
    this.abort();
    this.subject = null;
    if (!this.on) return;
    this.timer = setTimeout(() => this.begin(), delay);
  }

  abort() {
    clearTimeout(this.timer);
    this.timer = null;
    const run = this.run;
    this.run = null;
    run?.controller.abort();
  }

  isRunning(entry) {
    return this.run !== null && (entry === undefined || this.run.entry === entry);
  }

  // True while `entry` is analysed or about to be (its search starts once it has been shown
  // for a moment).
  isBusyWith(entry) {
    return this.isRunning(entry) || (this.timer !== null && this.subject === entry);
  }

  begin(key = null) {
    this.timer = null;
    if (!this.on) return;
    const wanted = this.target();
    this.subject = wanted.entry;
    if (wanted.idle) {
      this.onIdle(wanted.idle);
      return;
    }
    const request = {...wanted.request};
    if (wanted.infinite) request.session_key = key || `board-${Date.now().toString(36)}-${++sessions}`;
    const run = {controller: new AbortController(), entry: wanted.entry, started: performance.now(),
                 first: null, frames: 0, infinite: wanted.infinite, key: request.session_key,
                 continued: key !== null};
    this.run = run;
    this.onStart(run);
    analyzeStream({analysis: request, every_ms: 100}, (partial) => {
      if (this.run !== run) return;
      run.frames += 1;
      run.first ??= performance.now();
      partial.timing = {firstMs: run.first - run.started, frames: run.frames,
                        seconds: (performance.now() - run.first) / 1000};
      this.onPartial(run, partial);
    }, run.controller.signal).then(() => {
      if (this.run !== run) return;
      // An infinite analysis goes on where the server's bound ended the last search.
      if (run.infinite && this.on) {
        this.begin(run.key);
      } else {
        this.run = null;
        this.onIdle("");
      }
    }, (error) => {
      if (this.run !== run) return;
      this.stop();
      this.onError(error);
    });
  }
}
