// The page's calls to `boardbot web`'s gateway: one JSON POST per gRPC call, AnalyzeStream and
// ReviewGame as server-sent events read from a streaming fetch (so it can carry a body and be stopped with
// an AbortController), and a GET of each game's component data.

export class ApiError extends Error {
  constructor(info, httpStatus) {
    super(info.message || info.code || "request failed");
    this.info = info;            // {code, message, reason, field, json_path}
    this.httpStatus = httpStatus;
  }
}

// An error the page itself finds (no server answer behind it), in the server's error shape.
export function pageError(code, message, field = "") {
  return new ApiError({code, message, reason: "", field, json_path: ""}, 0);
}

function unreachable(error) {
  return pageError("UNREACHABLE",
                   `cannot reach boardbot web at ${location.host} (${error.message}); is it still running?`);
}

async function post(method, request, signal) {
  try {
    return await fetch(`/api/${method}`, {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw unreachable(error);
  }
}

async function failure(response) {
  let info;
  try {
    info = (await response.json()).error;
  } catch {
    info = null;
  }
  return new ApiError(info || {code: `HTTP_${response.status}`, message: response.statusText,
                               reason: "", field: "", json_path: ""}, response.status);
}

// A game's component data (names, cards, tiles, numbers): the data file its engines read.
export async function gameComponents(game) {
  let response;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(game)}/components`);
  } catch (error) {
    throw unreachable(error);
  }
  if (!response.ok) throw await failure(response);
  return response.json();
}

export async function call(method, request) {
  const response = await post(method, request);
  if (!response.ok) throw await failure(response);
  return response.json();
}

// Calls onMessage(analysis) for every partial analysis; resolves when the stream ends
// (normally, or because `signal` stopped it); rejects with ApiError for a server error.
export function analyzeStream(request, onMessage, signal) {
  return eventStream("AnalyzeStream", request, onMessage, signal);
}

// Calls onMessage(response) for every ReviewGameResponse (one per judged decision, then the
// summary); resolves when the review ends or `signal` stopped it; rejects with ApiError.
export function reviewStream(request, onMessage, signal) {
  return eventStream("ReviewGame", request, onMessage, signal);
}

async function eventStream(method, request, onMessage, signal) {
  const response = await post(method, request, signal);
  if (!response.ok) throw await failure(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, {stream: true});
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = parseEvent(block);
        if (event.name === "end") return;
        if (event.name === "error") throw new ApiError(event.data.error, 200);
        onMessage(event.data);
      }
    }
  } catch (error) {
    if (error.name === "AbortError") return;
    throw error;
  } finally {
    reader.releaseLock();
  }
}

function parseEvent(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) name = line.slice(7);
    else if (line.startsWith("data: ")) data.push(line.slice(6));
  }
  return {name, data: JSON.parse(data.join("\n") || "{}")};
}
