/**
 * Summarises a V8 CPU profile (`.cpuprofile`): where the busy samples went, by
 * function (self time), by component (the package or project file of the nearest
 * JavaScript caller, so a socket write or a `Headers` check done by node internals
 * counts for the code that asked for it), and the inclusive share of chosen functions
 * (each sample counted once per function, so recursion does not inflate it). Idle
 * samples are left out of every share.
 */

/** The parts of a V8 CPU profile this module reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** A row of a summary: a name and its share of busy time. */
export interface Share {
  name: string;
  ms: number;
  percent: number;
}

/** The summary of one profile. */
export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  selfByFunction: Share[];
  byComponent: Share[];
  inclusive: Share[];
}

/** Summarises `profile`; `inclusiveOf` names functions (`name` or `name@file-part`) to total inclusively. */
export function summariseProfile(profile: CpuProfile, inclusiveOf: string[], projectRoot: string): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    // timeDeltas[i] is the time before sample i; attributing it to sample i is V8's own convention.
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  let idleUs = 0;
  let busyUs = 0;
  const fn = new Map<string, number>();
  const component = new Map<string, number>();
  const inclusive = new Map<string, number>(inclusiveOf.map((name) => [name, 0]));
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const frame = node.callFrame;
    if (frame.functionName === "(idle)") {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const where = shortUrl(frame.url, projectRoot);
    add(fn, `${frame.functionName || "(anonymous)"} ${where ? `${where}:${frame.lineNumber + 1}` : ""}`.trim(), us);
    add(component, componentOf(id, byId, parent, projectRoot), us);
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const callFrame = byId.get(current)!.callFrame;
      for (const wanted of inclusiveOf) {
        if (seen.has(wanted) || !matches(wanted, callFrame)) continue;
        seen.add(wanted);
        add(inclusive, wanted, us);
      }
    }
  }
  const shares = (map: Map<string, number>) =>
    [...map].map(([name, us]) => ({ name, ms: us / 1000, percent: (us / busyUs) * 100 })).sort((a, b) => b.ms - a.ms);
  return { busyMs: busyUs / 1000, idleMs: idleUs / 1000, selfByFunction: shares(fn), byComponent: shares(component), inclusive: shares(inclusive) };
}

function matches(wanted: string, frame: { functionName: string; url: string }): boolean {
  const [name, file] = wanted.split("@");
  return frame.functionName === name && (file === undefined || frame.url.includes(file));
}

function add(map: Map<string, number>, key: string, us: number): void {
  map.set(key, (map.get(key) ?? 0) + us);
}

function shortUrl(url: string, projectRoot: string): string {
  const path = url.replace(/^file:\/\//, "");
  return path.startsWith(projectRoot) ? path.slice(projectRoot.length) : path;
}

/**
 * The package (`node_modules/<name>`) or project file of the nearest caller outside node's
 * own modules; V8's buckets (`(garbage collector)`, `(program)`) and node work with no
 * such caller (`runMicrotasks`, socket callbacks) are named as they are.
 */
function componentOf(id: number, byId: Map<number, CpuProfile["nodes"][number]>, parent: Map<number, number>, projectRoot: string): string {
  const own = byId.get(id)!.callFrame;
  for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
    const { url } = byId.get(current)!.callFrame;
    if (!url || url.startsWith("node:")) continue;
    const path = shortUrl(url, projectRoot);
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    return pkg ? `node_modules/${pkg[1]}` : path;
  }
  if (own.functionName.startsWith("(")) return own.functionName;
  return `node internals, no JS caller (${own.functionName || "anonymous"})`;
}
