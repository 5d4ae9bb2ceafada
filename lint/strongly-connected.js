/**
 * The strongly connected components of a directed graph with more than one node (Tarjan,
 * iterative so that a deep graph cannot overflow the stack): node → its component's number.
 * A node in no such component is on no cycle.
 */
export function stronglyConnected(nodes, edgesOf) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const component = new Map();
  let next = 0;
  let components = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work = [{ node: start, edges: edgesOf(start), at: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.at < frame.edges.length) {
        const to = frame.edges[frame.at++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edges: edgesOf(to), at: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        continue;
      }
      work.pop();
      const { node } = frame;
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) !== index.get(node)) continue;
      const members = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        members.push(member);
      } while (member !== node);
      if (members.length > 1) {
        for (const m of members) component.set(m, components);
        components++;
      }
    }
  }
  return component;
}

/** The shortest path from `from` to `to` along edges, staying inside `within` (BFS); undefined if none. */
export function shortestPath(from, to, edgesOf, within) {
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    if (node === to) {
      const path = [];
      for (let at = to; at !== undefined; at = previous.get(at)) path.unshift(at);
      return path;
    }
    for (const next of edgesOf(node)) {
      if (previous.has(next) || !within(next)) continue;
      previous.set(next, node);
      queue.push(next);
    }
  }
  return undefined;
}
