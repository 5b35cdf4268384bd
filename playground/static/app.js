// The playground's page: four panels over the server's JSON API (server.py).
// Every text from a ruleset is put in the page as text (textContent), never
// as markup; the only markup taken from the server is the SVG it draws and
// escapes itself (board.py, charts.py), and documents shown in a sandboxed frame.

const $ = (id) => document.getElementById(id);
const state = {
  file: null, writable: false, saved: "", info: null, problems: [],
  table: null, seat: null, view: null, job: null, checkSeq: 0, files: [],
};

// ------------------------------------------------------------------ the API

async function api(name, data = {}) {
  const response = await fetch(`/api/${name}`, {
    method: "POST", body: JSON.stringify(data),
    headers: { "content-type": "application/json", "x-rulelang": "1" },
  });
  const text = await response.text();
  let body;
  try { body = JSON.parse(text); } catch { body = { error: `${response.status}: ${text}` }; }
  if (!response.ok) { const e = new Error(body.error || response.statusText); e.body = body; throw e; }
  return body;
}

function say(text, kind = "info") {
  const m = $("message");
  m.textContent = text || "";
  m.className = `message ${kind}`;
}

async function attempt(work) {
  try { return await work(); } catch (e) { say(e.message, "error"); return null; }
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function option(value, text) { return el("option", { value, text: text ?? value }); }

// ------------------------------------------------------------------ files, modes, parameters

function ruleset() {
  // the ruleset as the editor holds it now: what the page plays, reads and simulates
  const params = {};
  for (const input of $("params").querySelectorAll("[data-param]")) {
    if (input.value !== "") params[input.dataset.param] = input.type === "checkbox" ? input.checked : input.value;
  }
  // a scenario open in the editor is played, read and simulated with the ruleset opened before it
  if (isScenario(state.file)) return { path: $("file").dataset.ruleset, params };
  return { path: state.file, text: $("text").value, params };
}

function isScenario(path) {
  return state.files.some((f) => f.path === path && f.kind === "scenario") || /^(scenario|ruleset):/m.test($("text").value.split("\n").slice(0, 40).join("\n"));
}

async function loadFiles() {
  const listing = await api("files");
  state.files = listing.files;
  const select = $("file");
  select.replaceChildren();
  const own = el("optgroup", { label: `Folder: ${listing.folder}` });
  for (const f of listing.files) own.append(option(f.path, `${f.path} (${f.kind})`));
  const bundled = el("optgroup", { label: "Bundled (read only)" });
  for (const b of listing.bundled) bundled.append(option(b, b.slice("bundled:".length)));
  select.append(own, bundled);
  const scenario = $("scenario"), saves = $("load-game"), compare = $("compare");
  scenario.replaceChildren(option("", "the start"));
  saves.replaceChildren(option("", "a saved game…"));
  compare.replaceChildren(option("", "nothing"), option("@saved", "the file as last saved"));
  for (const f of listing.files) {
    if (f.kind === "scenario") scenario.append(option(f.path));
    if (f.kind === "save") saves.append(option(f.path));
    if (f.kind === "ruleset") compare.append(option(f.path));
  }
  for (const b of listing.bundled) compare.append(option(b, b.slice("bundled:".length)));
  return listing;
}

async function openFile(path) {
  $("check-status").textContent = "opening…";
  $("check-status").className = "status";
  const opened = await api("open", { path });
  if (!isScenario(path) && !/^(scenario|ruleset):/m.test(opened.text.slice(0, 4000))) $("file").dataset.ruleset = path;
  state.file = opened.path;
  state.writable = opened.writable;
  state.saved = opened.text;
  $("file").value = path;
  setText(opened.text);
  $("save").disabled = !opened.writable;
  $("save-as").value = opened.writable ? "" : `${path.slice("bundled:".length)}.yaml`;
  await refreshInfo();
  await check();
}

async function refreshInfo() {
  if (isScenario(state.file)) return;
  let info;
  try { info = await api("info", ruleset()); } catch { return; }  // the problems say why
  state.info = info;
  $("title").textContent = info.title;
  const mode = $("mode"), chosen = mode.value;
  mode.replaceChildren(...info.modes.map((m) => option(m.name, m.title || m.name)));
  if (info.modes.some((m) => m.name === chosen)) mode.value = chosen;
  const params = $("params"), before = {};
  for (const i of params.querySelectorAll("[data-param]")) before[i.dataset.param] = i.value;
  params.replaceChildren();
  for (const p of info.params) {
    const choices = p.type === "true/false" ? ["true", "false"] : p.choices.map(String);
    const input = choices.length
      ? el("select", { dataset: { param: p.name } }, option("", `${p.default} (default)`), ...choices.map((c) => option(c)))
      : el("input", { dataset: { param: p.name }, size: 6, placeholder: String(p.default) });
    input.value = before[p.name] ?? "";
    params.append(el("label", { title: p.text || "" }, `${p.name.replaceAll("_", " ")} `, input));
  }
  seatControls();
}

function currentMode() {
  return state.info?.modes.find((m) => m.name === $("mode").value) ?? state.info?.modes[0];
}

// ------------------------------------------------------------------ the editor

function setText(text) {
  $("text").value = text;
  drawMarks();
}

function drawMarks() {
  const text = $("text").value;
  const lines = text.split("\n");
  const bad = new Map();
  for (const p of state.problems) if (p.range && p.file === state.file) bad.set(p.range.start.line, p.severity);
  $("gutter").replaceChildren(...lines.map((_, i) => el("div", { class: bad.get(i + 1) || "", text: String(i + 1) })));
  // the text again, invisible, with each problem's range underlined where the editor shows it
  const marks = $("marks");
  marks.replaceChildren();
  const starts = [0];
  for (const line of lines) starts.push(starts[starts.length - 1] + line.length + 1);
  const at = (pos) => starts[Math.min(pos.line, lines.length) - 1] + pos.column - 1;
  const ranges = state.problems.filter((p) => p.range && p.file === state.file)
    .map((p) => [at(p.range.start), Math.max(at(p.range.end), at(p.range.start) + 1), p.severity])
    .sort((a, b) => a[0] - b[0]);
  let done = 0;
  for (const [from, to, severity] of ranges) {
    if (from < done) continue;
    marks.append(text.slice(done, from), el("mark", { class: severity, text: text.slice(from, to) }));
    done = to;
  }
  marks.append(text.slice(done) + "\n");
  syncScroll();
}

function syncScroll() {
  const t = $("text");
  $("marks").scrollTop = t.scrollTop;
  $("marks").scrollLeft = t.scrollLeft;
  $("gutter").scrollTop = t.scrollTop;
}

let checkTimer = null;
function checkSoon() {
  clearTimeout(checkTimer);
  $("check-status").textContent = "checking…";
  $("check-status").className = "status";
  checkTimer = setTimeout(check, 250);
}

async function check() {
  const seq = ++state.checkSeq;
  const sent = ruleset();
  let problems;
  try {
    const data = { ...sent };
    if (isScenario(state.file)) Object.assign(data, { path: state.file, text: $("text").value, ruleset: { path: $("file").dataset.ruleset || "" } });
    problems = (await api("check", data)).problems;
  } catch (e) { problems = [{ file: null, range: null, severity: "error", message: e.message, hint: null }]; }
  if (seq !== state.checkSeq) return;  // an older answer than what the editor holds
  state.problems = problems;
  showProblems();
  drawMarks();
  if (!problems.some((p) => p.severity === "error")) refreshInfo();
}

function showProblems() {
  const list = $("problems");
  list.replaceChildren();
  const errors = state.problems.filter((p) => p.severity === "error").length;
  const warnings = state.problems.length - errors;
  $("check-status").textContent = errors || warnings
    ? `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}` : "no problems";
  $("check-status").className = `status ${errors ? "error" : warnings ? "warning" : "ok"}`;
  for (const p of state.problems) {
    const where = p.range ? `${p.file === state.file ? "" : `${p.file}:`}${p.range.start.line}:${p.range.start.column}` : (p.file || "");
    const item = el("li", { class: `problem ${p.severity}` },
      el("span", { class: "where", text: where }), " ",
      el("span", { class: "severity", text: p.severity }), ": ",
      el("span", { class: "text", text: p.message }));
    if (p.hint) item.append(el("div", { class: "hint", text: `hint: ${p.hint}` }));
    if (p.range && p.file === state.file) item.addEventListener("click", () => jumpTo(p.range));
    list.append(item);
  }
}

function jumpTo(range) {
  const t = $("text"), lines = t.value.split("\n");
  let pos = 0;
  for (let i = 0; i < range.start.line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
  pos += range.start.column - 1;
  t.focus();
  t.setSelectionRange(pos, pos + Math.max(1, range.end.line === range.start.line ? range.end.column - range.start.column : 1));
  t.scrollTop = Math.max(0, (range.start.line - 5) * 18);
  syncScroll();
}

async function save() {
  const name = $("save-as").value.trim() || state.file;
  const saved = await api("save", { path: name, text: $("text").value });
  state.saved = $("text").value;
  await loadFiles();
  if (saved.saved !== state.file) await openFile(saved.saved);
  say(`saved ${saved.saved}`);
  if ($("read").classList.contains("active")) readRules(false);
}

// ------------------------------------------------------------------ read

async function readRules(quick) {
  $("read-status").textContent = "writing…";
  $("cards").hidden = true;
  const made = await api("read", { ...ruleset(), mode: $("mode").value, quick });
  $("doc").hidden = false;
  $("doc").src = made.doc;
  $("read-status").textContent = quick ? "quick reference" : "rules summary";
}

async function readCards() {
  $("read-status").textContent = "drawing…";
  const made = await api("cards", ruleset());
  $("doc").hidden = true;
  const box = $("cards");
  box.hidden = false;
  box.replaceChildren();
  for (const face of made.cards) {
    const img = el("img", { alt: face.label, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(face.svg)}` });
    box.append(el("figure", {}, img, el("figcaption", { text: `${face.label} ×${face.count}` })));
  }
  $("read-status").textContent = made.note || (made.cards.length ? `${made.cards.length} faces` : "no cards");
  for (const w of made.warnings) box.append(el("p", { class: "warning", text: w }));
}

// ------------------------------------------------------------------ play

const AGENTS = ["person", "random", "first", "greedy", "mcts"];

function seatControls() {
  const mode = currentMode();
  for (const [box, withPerson] of [[$("seats"), true], [$("sim-agents"), false]]) {
    const before = {};
    for (const s of box.querySelectorAll("select")) before[s.dataset.role] = [s.value, s.nextSibling.value];
    box.replaceChildren();
    for (const role of mode?.roles ?? []) {
      const kinds = withPerson ? AGENTS : AGENTS.slice(1);
      const select = el("select", { dataset: { role } }, ...kinds.map((k) => option(k)));
      const strength = el("input", { size: 5, placeholder: "iterations", title: "MCTS iterations (strength)" });
      const [kind, iterations] = before[role] ?? [withPerson && role === mode.roles[0] ? "person" : "random", ""];
      select.value = kind;
      strength.value = iterations;
      strength.hidden = select.value !== "mcts";
      select.addEventListener("change", () => { strength.hidden = select.value !== "mcts"; });
      box.append(el("label", {}, `${role.replaceAll("_", " ")} `, select, strength));
    }
  }
}

function seatsOf(box) {
  const seats = {};
  for (const s of box.querySelectorAll("select")) {
    const n = s.nextSibling.value.trim();
    seats[s.dataset.role] = s.value === "mcts" && n ? `mcts:iterations=${n}` : s.value;
  }
  return seats;
}

async function newGame() {
  const view = await api("play/new", {
    ...ruleset(), mode: $("mode").value, seats: seatsOf($("seats")), seed: $("seed").value.trim(),
    scenario: $("scenario").value || null,
  });
  showTable(view);
}

function newScenario() {
  // a scenario file to fill in: every zone and value of the mode as its rules set them up (docs/playground.md)
  const info = state.info, mode = currentMode(), roles = mode?.roles ?? [];
  const yaml = (v) => JSON.stringify(v);  // JSON is YAML, and quotes what needs it
  const lines = [`scenario: ${yaml(`${info.title}: a position`)}`, `ruleset: ${info.name}`, `mode: ${mode.name}`,
    "round: 1", `step: ${yaml(mode.steps[0])}`, "zones:  # each zone listed holds exactly these cards, bottom first"];
  for (const z of info.zones) {
    if (z.kind === "grid" || z.kind === "graph") lines.push(`  # ${z.name}: {"X,Y" or PLACE: [cards]}`);
    else if (z.owner === "each") lines.push(`  ${z.name}: {${roles.map((r) => `${r}: []`).join(", ")}}`);
    else lines.push(`  ${z.name}: []`);
  }
  lines.push("others: box  # where the cards left out go", "vars:");
  for (const v of info.vars) {
    if (v.initial === null || v.initial === undefined) { lines.push(`  # ${v.name}: a ${v.type}`); continue; }
    const value = yaml(v.initial);
    lines.push(v.owner === "each" ? `  ${v.name}: {${roles.map((r) => `${r}: ${value}`).join(", ")}}` : `  ${v.name}: ${value}`);
  }
  lines.push("# the cards, by their labels:");
  for (const [kind, labels] of Object.entries(info.cards)) lines.push(`#   ${kind}: ${labels.slice(0, 12).join(", ")}${labels.length > 12 ? ", …" : ""}`);
  const name = `${info.name}-scenario.yaml`;
  state.file = name;
  state.writable = true;
  $("save").disabled = false;
  $("save-as").value = name;
  setText(lines.join("\n") + "\n");
  showTab("edit");
  check();
  say(`a new scenario: fill it in, save it as ${name}, then start a game from it (Play, Start from)`);
}

async function loadGame() {
  if (!$("load-game").value) return;
  showTable(await api("play/load", { path: $("load-game").value, seats: {} }));
}

function showTable(view) {
  state.table = view.table;
  state.seat = view.seat;
  state.view = view;
  $("play-bar").hidden = false;
  const seat = $("seat");
  seat.replaceChildren(...Object.entries(view.seats).map(([r, who]) => option(r, `${r.replaceAll("_", " ")} (${who})`)));
  seat.value = view.seat;
  $("board").innerHTML = view.board;  // drawn and escaped by the server (board.py)
  $("board").dataset.shown = String(Number($("board").dataset.shown || 0) + 1);  // views shown (for tests)
  for (const node of $("board").querySelectorAll("[data-target]")) node.addEventListener("click", onTarget);
  const decision = $("decision");
  decision.replaceChildren();
  if (view.options.length) {
    decision.append(el("h3", { text: `Your decision: ${view.label}` }));
    for (const o of view.options) {
      decision.append(el("button", { class: "option", dataset: { index: o.index }, text: o.text, onclick: () => answer(o.index) }));
    }
  } else if (view.waiting) {
    decision.append(el("p", { text: `waiting for ${view.waiting.replaceAll("_", " ")}` }));
  }
  $("events").replaceChildren(...[...view.changes, ...view.events].map((e) => el("li", { text: e })));
  $("vars").replaceChildren(...Object.entries(view.vars).map(([k, v]) =>
    el("tr", {}, el("th", { text: k.replaceAll("_", " ") }), el("td", { text: shown(v) }))));
  const outcome = $("outcome");
  outcome.hidden = !view.outcome && !view.problem;
  outcome.replaceChildren();
  if (view.outcome) {
    outcome.append(el("h3", { text: "Game over" }), el("p", { text: view.outcome.text }));
    for (const [role, score] of Object.entries(view.outcome.scores)) {
      outcome.append(el("p", { text: `${role.replaceAll("_", " ")}: ${view.outcome.results[role] ?? ""} — score ${score}` }));
    }
    outcome.append(el("p", { text: `${view.outcome.rounds} rounds` }));
  }
  if (view.problem) outcome.append(el("p", { class: "error", text: view.problem }));
  $("undo").disabled = !view.can_undo;
  $("play-status").textContent = `round ${view.round} · ${view.step ?? ""}`;
  if (view.thinking) setTimeout(() => attempt(async () => showTable(await api("play/view", { table: state.table, seat: state.seat }))), 50);
}

function shown(value) {
  // a value as a player reads it: one per player as "player 1: 5, player 2: 3"
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k.replaceAll("_", " ")}: ${shown(v)}`).join(", ");
  return String(value).replaceAll("_", " ");
}

function onTarget(event) {
  event.stopPropagation();
  const target = event.currentTarget.dataset.target;
  const naming = state.view.options.filter((o) => o.targets.includes(target));
  for (const b of $("decision").querySelectorAll("button.option")) b.classList.remove("named");
  if (naming.length === 1) return answer(naming[0].index);
  for (const o of naming) $("decision").querySelector(`[data-index="${o.index}"]`)?.classList.add("named");
  say(`${naming.length} options name this: choose one`);
}

async function answer(index) {
  await attempt(async () => showTable(await api("play/answer", { table: state.table, seat: state.seat, option: index })));
}

// ------------------------------------------------------------------ simulate and compare

async function simulate() {
  const games = parseInt($("games").value, 10);
  const entries = [{ ...ruleset(), label: state.file }];
  const other = $("compare").value;
  if (other === "@saved") {
    entries[0].label = `${state.file} (editing)`;
    entries.push({ path: state.file, params: entries[0].params, label: `${state.file} (as saved)` });
  } else if (other) {
    entries.push({ path: other, params: entries[0].params, label: other });
  }
  const started = await api("simulate", {
    entries, games, seed: $("sim-seed").value.trim() || 0, mode: $("mode").value, agents: seatsOf($("sim-agents")),
  });
  state.job = started.job;
  $("cancel-sim").disabled = false;
  $("run-sim").disabled = true;
  $("sim-charts").replaceChildren();
  $("sim-text").textContent = "";
  poll(started.job);
}

async function poll(job) {
  let status;
  try { status = await api("jobs/status", { job }); } catch (e) { say(e.message, "error"); return finishJob(); }
  if (job !== state.job) return;
  const share = status.total ? status.done / status.total : 0;
  $("progress-bar").style.width = `${(100 * share).toFixed(1)}%`;
  $("progress-text").textContent = `${status.done} / ${status.total} games · ${status.seconds} s · ${status.state}`;
  if (status.state === "running") { setTimeout(() => poll(job), 250); return; }
  finishJob();
  if (status.error) say(status.error, "error");
  if (status.result) {
    $("sim-charts").replaceChildren(...status.result.charts.map((c) => {
      const figure = el("figure", {}, el("figcaption", { text: c.title }));
      const box = el("div");
      box.innerHTML = c.svg;  // drawn and escaped by the server (charts.py)
      figure.append(box);
      return figure;
    }));
    $("sim-text").textContent = status.result.text;
  }
}

function finishJob() {
  $("cancel-sim").disabled = true;
  $("run-sim").disabled = false;
}

async function cancel() {
  if (state.job) await api("jobs/cancel", { job: state.job });
}

// ------------------------------------------------------------------ wiring

function showTab(name) {
  for (const b of $("tabs").querySelectorAll("button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".panel")) p.classList.toggle("active", p.id === name);
}

function wire() {
  $("tabs").addEventListener("click", (e) => { if (e.target.dataset.tab) showTab(e.target.dataset.tab); });
  $("file").addEventListener("change", () => attempt(() => openFile($("file").value)));
  $("text").addEventListener("input", () => { drawMarks(); checkSoon(); });
  $("text").addEventListener("scroll", syncScroll);
  $("text").addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); attempt(save); }
  });
  $("save").addEventListener("click", () => attempt(save));
  $("mode").addEventListener("change", seatControls);
  $("params").addEventListener("change", () => attempt(check));
  $("read-summary").addEventListener("click", () => attempt(() => readRules(false)));
  $("read-quick").addEventListener("click", () => attempt(() => readRules(true)));
  $("read-cards").addEventListener("click", () => attempt(readCards));
  $("new-game").addEventListener("click", () => attempt(newGame));
  $("load").addEventListener("click", () => attempt(loadGame));
  $("new-scenario").addEventListener("click", () => attempt(async () => newScenario()));
  $("seat").addEventListener("change", () => attempt(async () =>
    showTable(await api("play/view", { table: state.table, seat: $("seat").value }))));
  $("undo").addEventListener("click", () => attempt(async () =>
    showTable(await api("play/undo", { table: state.table, seat: state.seat }))));
  $("save-game").addEventListener("click", () => attempt(async () => {
    const saved = await api("play/save", { table: state.table, name: $("save-game-name").value.trim() || "game.json" });
    await loadFiles();
    say(`saved ${saved.saved}: rulelang run RULESET --resume ${saved.saved} continues it`);
  }));
  $("run-sim").addEventListener("click", () => attempt(simulate));
  $("cancel-sim").addEventListener("click", () => attempt(cancel));
}

async function start() {
  wire();
  const listing = await loadFiles();
  const first = listing.opened || listing.files.find((f) => f.kind === "ruleset")?.path || listing.bundled[0];
  await openFile(first);
  say("");
}

attempt(start);
