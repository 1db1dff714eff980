package live

// walkerSource is the bounded capture's walker: a function of the budget,
// the limit, whether to wait for a rendered frame first, the capture's id
// and how many captures' nodes to keep, evaluated in an isolated world of the main frame, so the page's own
// script can neither see it nor change what it calls (every world has its
// own prototypes and globals), and the page's Content-Security-Policy does
// not apply to it. The wait is Page.awaitRenderedFrame's (two animation
// frames), made here so that a capture costs one protocol call. The walk
// itself runs synchronously, so no page script runs while it reads: the
// document it returns is one state of the page.
//
// It walks the main document in tree order through firstChild and
// nextSibling (the light tree: no shadow tree, no template contents, no
// frame document, as the whole capture's tree leaves them out; processing
// instructions are skipped, as the capture's reader skips them) and writes
// each node in the terms of DOMSnapshot.captureSnapshot, the tables
// capture.DecodeBounded reads:
//
//   - parentIndex, nodeType, nodeName (as the DOM spells it), nodeValue for
//     text, CDATA and comments, and attributes as name, value pairs;
//   - inputChecked for checked checkbox and radio inputs, the browser's state;
//   - a layout object, with the computed display and visibility, for every
//     element the browser gave a box. checkVisibility with
//     contentVisibilityAuto is true exactly for an element with a box that
//     no content-visibility ancestor skips. Outside content that
//     content-visibility can skip, those are the elements captureSnapshot
//     lists layout objects for; inside it they are not (see below). An
//     element without a box is rendered
//     (captureSnapshot: a descendant has a layout object) only when it is
//     display: contents and a range over its contents has client rects;
//     such an element gets a layout object whose styles say what the
//     capture's reader makes of it (a block, with its parent's visibility),
//     and every other element without a box gets none, so its descendants
//     are not asked.
//
// Content whose rendering content-visibility may skip (an element with a
// box whose content-visibility is not visible: auto, hidden, and the
// hidden="until-found" elements that are content-visibility: hidden) is
// where a script cannot see what captureSnapshot lists. The browser keeps
// the layout objects skipped content had when it was last rendered (content
// laid out on screen, then pushed far below it, still has them), and
// captureSnapshot lists them; checkVisibility says only that the content is
// skipped, and asking it, or any layout question, about an element inside
// makes the browser build that content's layout objects, which changes what
// a later capture lists. So the walker asks nothing inside: at the first
// such element with a box it stops and answers {"whole": true}, and the
// caller takes the whole snapshot instead (errWholePage).
//
// Values never leave the page: the value attribute of an input that is not
// a button is not read (the secret rule of domtree.InputValueSecret, on the
// first type attribute), a textarea's text children are written empty and
// so is every text inside an editing host (the first contenteditable
// attribute decides, domtree.EditingHost), exactly what the scrub would
// leave of a whole capture. Property values (an input's value, a select's
// choice) are never read at all; checked state is read, as the capture
// holds it.
//
// It stops before the node that would pass the budget (the nodes a scan
// pays for: every node but those inside an element no scan enters, one
// without a layout object, aria-hidden="true", the head, a script, style,
// template, noscript or title element, a hidden input) or the limit (of
// all nodes), and says whether the document continued ("cut"): the
// horizon. The budget's rule is an estimate of what the scans will read;
// where it is off, the caller's retake makes up for it. When cut, it also says whether a
// label with a for attribute lies past the horizon (labelsBeyond), by
// comparing the labels it wrote with the document's count, so that label
// lookups on the partial tree stay exact when none do. Counting is the one
// step that reads the whole document; the browser keeps the count of its
// label elements while the document does not change, and only a page with
// labels past the horizon has them selected by attribute. In a document
// that is not HTML it does not count and says there may be.
//
// The reply says (shadow) whether the walk met an open shadow root that
// holds nodes, or a frame: a session then takes the whole snapshot, which
// lists the composed tree the page view reads
// (docs/reference.md#the-composed-page), as it does when the caller finds
// a closed shadow root. An open root without nodes leaves no trace in a
// whole capture. With lightOnly, the walker answers {"whole": true} as
// soon as it meets such content instead of walking on.
//
// An element with an open shadow root is written as a whole capture writes
// it: its shadow root follows it as a fragment node in the shadowRootType
// table, and its light children are not written (a whole capture walks the
// flat tree, where they are not the host's children). A closed shadow root
// is invisible to every script; closed roots are attached to custom
// elements in practice, so the walker lists the custom elements, with
// children or without (candidates), and the caller asks the browser which of them host
// one (DOM.describeNode, nodeHandles.closedHosts). It also plans those
// questions ("plan": node, depth, element count), as cheaply as it can: a
// description is a call (about as costly as 43 nodes of description, as
// measured) plus its nodes, and a node can be described alone (depth 0),
// with its children (1) or with its whole subtree (-1, at most wholeNodes
// nodes and wholeHeight deep: a subtree the walker read to its end, whose
// nodes it counted, or one a cut left unread in part, whose unread nodes it
// counts without writing them (settle); the light elements of an open
// shadow host, which the walker does not write, are counted and numbered,
// up to lightLimit of them, past which no subtree holding it is described). The
// plan is the cheapest cover of the candidates among those (a pass over the
// subtrees as they end); a page of a component framework, where nearly
// every element is a custom element with children, takes one description
// of a subtree instead of one per parent (measured: 304 calls and 113 ms on
// a 1,300-node page before). Each candidate is listed with the plan entry
// that says of it and its place among that description's elements (the
// node itself if an element, then its element descendants or children in
// order), and each entry with the number of elements its description must
// have, which the caller checks.
//
// Otherwise it returns one string, JSON of {"capture": ..., "plan": [...],
// "candidates": [...]}: the browser sends a string at a fraction of what the
// same tables cost it as an object. The nodes written are kept, in order (null for a shadow
// root), in the isolated world's global __domsnapCaptures, a map from the
// capture's id that holds the last keep captures, where only this package
// looks, to find backend node ids when something reads them.
const walkerSource = `(async function (budget, limit, wait, id, keep, lightOnly) {
	'use strict';
	if (wait) await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
	// The plan's prices, in nodes of description: a call, and the largest
	// and deepest subtree described whole (the browser refuses replies
	// nested much deeper: each level is two).
	const describeCall = 43, wholeNodes = 65536, wholeHeight = 100, lightLimit = 256;
	const strings = [], index = new Map();
	const str = (s) => {
		let i = index.get(s);
		if (i === undefined) { i = strings.length; strings.push(s); index.set(s, i); }
		return i;
	};
	// ASCII lower case, as the reader folds names; most names need no
	// change, and element names are folded once each.
	const lower = (s) => s === s.toLowerCase() ? s : s.replace(/[A-Z]+/g, (c) => c.toLowerCase());
	const names = new Map();
	const lowerName = (s) => {
		let l = names.get(s);
		if (l === undefined) { l = lower(s); names.set(s, l); }
		return l;
	};
	const parent = [-1], type = [9], name = [str('#document')], value = [-1], attrs = [[]];
	const checked = [], lnode = [], lstyles = [], shadowIndex = [], shadowValue = [];
	const handles = [document], cands = [];
	const empty = str('');
	let labels = 0, labelsAll = 0, cut = false, paid = 1; // the document is paid for
	let shadow = false; // an open shadow root holding nodes was met
	let elements = 0; // elements written so far: the next one's ordinal
	// A frame per open element: its index, whether its children may have
	// boxes, the visibility the reader gives it, whether it is or lies in an
	// editing host, whether it is a textarea, whether it is or lies in an
	// element a scan does not enter, and how many element children it has
	// met; and for the plan of descriptions (plan below): its element
	// ordinal (e0), the nodes, elements and height of its subtree so far,
	// its child nodes, its candidate (-1 when it is none) and place among
	// its parent's element children, and the frames of its children that
	// hold candidates (sub).
	const frameOf = (i, e0, place) => ({ i, e0, place, size: 1, ecount: 0, height: 0, kids: 0, cand: -1, sub: null });
	const stack = [Object.assign(frameOf(0, 0, 0), { boxes: true, vis: 'visible', edit: false, ta: false, out: false, elems: 0 })];
	const skipped = new Set(['head', 'script', 'style', 'template', 'noscript', 'title']);
	// lightElements counts an open shadow host's light elements and the
	// depth they reach, up to lightLimit of them: -1 past that.
	const lightElements = (host) => {
		let n = 0, depth = 0, deepest = 0, e = host.firstElementChild;
		while (e !== null) {
			if (++n > lightLimit) return [-1, 0];
			if (depth + 1 > deepest) deepest = depth + 1;
			if (e.firstElementChild !== null) { e = e.firstElementChild; depth++; continue; }
			while (e !== host && e.nextElementSibling === null) { e = e.parentElement; depth--; }
			e = e === host ? null : e.nextElementSibling;
		}
		return [n, deepest];
	};
	// settle prices the ways to learn of the candidates in a frame's
	// subtree, once it ended (complete: read to its end), and adds the
	// subtree to its parent's. inC covers the candidates below the frame's
	// node: its whole subtree described ('W'), each child's own cover
	// ('S'), or the node described with its children, which says of every
	// child, plus the covers below those ('D'). allC covers the node too:
	// 'W', or inC and, for a candidate, the node described alone ('I').
	//
	// A subtree the walk did not finish (a cut) is described whole only
	// when what is left of it is small enough to pay: those nodes are
	// counted (countRest), never written, at most as many as the other
	// covers would describe; its unread elements come after every written
	// one in a description, so the written candidates keep their places.
	const settle = (f, complete, depth, last) => {
		let sumAll = 0, sumIn = 0, candKid = false;
		for (const c of f.sub || []) { sumAll += c.allC; sumIn += c.inC; if (c.cand >= 0) candKid = true; }
		// A subtree not read to its end is described with all its
		// children, read or not.
		if (!complete) f.kids = handles[f.i].childNodes.length;
		const withKids = candKid ? describeCall + f.kids + sumIn : Infinity;
		let whole = Infinity;
		f.restElems = 0;
		if (f.size <= wholeNodes && f.height <= wholeHeight) {
			if (complete) whole = describeCall + f.size;
			else if (f.sub !== null) {
				const cap = Math.min(sumAll, withKids) - describeCall - f.size;
				if (cap > 0 && countRest(handles[f.i], cap) && f.size + rest.nodes <= wholeNodes && rest.deepest - depth <= wholeHeight) {
					whole = describeCall + f.size + rest.nodes;
					f.restElems = rest.elems;
				}
			}
		}
		f.inC = 0; f.inChoice = 'S';
		if (f.sub !== null) {
			f.inC = Math.min(whole, sumAll, withKids);
			f.inChoice = f.inC === whole ? 'W' : f.inC === sumAll ? 'S' : 'D';
		}
		f.allC = f.inC; f.allChoice = 'I';
		if (f.cand >= 0) {
			f.allC = Math.min(whole, f.inC + describeCall);
			if (f.allC === whole) f.allChoice = 'W';
		}
		f.complete = complete;
		if (last) return;
		const up = stack[stack.length - 1];
		up.size += f.size; up.ecount += f.ecount;
		if (f.height + 1 > up.height) up.height = f.height + 1;
		if (f.allC > 0) (up.sub || (up.sub = [])).push(f);
	};
	// rest is the count of unread nodes after a cut, in document order from
	// the first one, resumed frame after frame from the innermost out:
	// nodes and elements counted, the deepest depth met, the node it is at,
	// and whether that node was counted (false: the count left it, its
	// subtree counted).
	const rest = { nodes: 0, elems: 0, deepest: 0, at: null, depth: 0, fresh: true };
	// countRest counts on until the end of node's subtree, true, or until
	// more than cap nodes are counted, false.
	const countRest = (node, cap) => {
		for (;;) {
			if (rest.fresh) {
				if (rest.nodes >= cap) return false;
				const n = rest.at;
				rest.nodes++;
				if (n.nodeType === 1) rest.elems++;
				if (rest.depth > rest.deepest) rest.deepest = rest.depth;
				if (n.firstChild !== null) { rest.at = n.firstChild; rest.depth++; continue; }
			}
			let n = rest.at;
			while (n !== node && n.nextSibling === null) { n = n.parentNode; rest.depth--; }
			rest.at = n;
			if (n === node) { rest.fresh = false; return true; }
			rest.at = n.nextSibling; rest.fresh = true;
		}
	};
	let cur = document.firstChild;
	while (cur !== null) {
		const top = stack[stack.length - 1];
		const t = cur.nodeType;
		let frame = null;
		if (t === 1 || t === 3 || t === 4 || t === 8 || t === 10) {
			const root = t === 1 ? cur.shadowRoot : null;
			// Shadow content is read by the whole snapshot, which walks the
			// flat tree (slots standing for their assigned nodes) as the
			// page view needs it: the reply says the walk met some.
			if (root !== null && root.firstChild !== null) shadow = true;
			// So are frame documents, which only the whole snapshot lists.
			if (t === 1 && (cur.localName === 'iframe' || cur.localName === 'frame')) shadow = true;
			if (shadow && lightOnly) return JSON.stringify({ whole: true });
			if (handles.length + (root === null ? 1 : 2) > limit || (!top.out && paid >= budget)) { cut = true; break; }
			if (!top.out) paid++;
			const i = handles.length;
			handles.push(cur); parent.push(top.i); type.push(t);
			top.kids++;
			if (top.height < 1) top.height = 1;
			if (t === 1) {
				const nm = cur.nodeName, lname = lowerName(nm), ordinal = top.elems++, e0 = elements++;
				name.push(str(nm)); value.push(-1);
				const list = cur.attributes, a = [];
				let secret = false, edit = top.edit, ceSeen = false, labelFor = false;
				let out = top.out || skipped.has(lname), hiddenSeen = false;
				if (lname === 'input') {
					secret = true;
					for (let k = 0; k < list.length; k++) {
						if (lower(list[k].name) === 'type') {
							const v = lower(list[k].value);
							secret = !(v === 'button' || v === 'submit' || v === 'reset');
							if (v === 'hidden') out = true;
							break;
						}
					}
				}
				for (let k = 0; k < list.length; k++) {
					const an = list[k].name, ln = lower(an);
					if (secret && ln === 'value') continue;
					const v = list[k].value;
					if (ln === 'aria-hidden' && !hiddenSeen) {
						hiddenSeen = true;
						if (lower(v) === 'true') out = true;
					}
					if (ln === 'contenteditable' && !ceSeen) {
						ceSeen = true;
						const lv = lower(v);
						if (lv === '' || lv === 'true' || lv === 'plaintext-only') edit = true;
					}
					if (ln === 'for') labelFor = true;
					a.push(str(an), str(v));
				}
				attrs.push(a);
				if (lname === 'label') { labelsAll++; if (labelFor) labels++; }
				if (cur instanceof HTMLInputElement && (cur.type === 'checkbox' || cur.type === 'radio') && cur.checked) checked.push(i);
				let vis = top.vis, boxes = false;
				if (top.boxes) {
					if (cur.checkVisibility({ contentVisibilityAuto: true })) {
						const cs = getComputedStyle(cur);
						if (cs.contentVisibility !== 'visible') return JSON.stringify({ whole: true });
						vis = cs.visibility;
						lnode.push(i); lstyles.push([str(cs.display), str(vis)]);
						boxes = true;
					} else if (getComputedStyle(cur).display === 'contents') {
						const r = document.createRange();
						r.selectNodeContents(cur);
						if (r.getClientRects().length > 0) {
							lnode.push(i); lstyles.push([str('contents'), str(top.vis)]);
							boxes = true;
						}
					}
				}
				// Not rendered: the reader makes it display: none.
				if (!boxes) out = true;
				if (root !== null) {
					// An open shadow root, written as a whole capture
					// writes it: a fragment child that the reader leaves
					// out, with the host's light children, which a whole
					// capture does not list under the host either.
					handles.push(null); parent.push(i); type.push(11); name.push(str('#document-fragment'));
					value.push(-1); attrs.push([]);
					shadowIndex.push(i + 1); shadowValue.push(str(root.mode));
					// Its light children are not written, but a
					// description lists them: they count among the
					// elements after it (and a host of very many of them
					// rules out describing a subtree that holds it).
					const [light, deep] = lightElements(cur);
					if (light < 0) top.size = Infinity;
					else {
						top.size += 2 + 2 * light;
						if (deep + 1 > top.height) top.height = deep + 1;
					}
					top.ecount += 1 + Math.max(light, 0);
					elements += Math.max(light, 0);
				} else if (cur.firstChild === null) {
					if (nm.indexOf('-') >= 0) {
						// A custom element without children may still host a
						// closed shadow root (a component's whole drawing):
						// a candidate, settled at once as a leaf.
						const f = frameOf(i, e0, ordinal);
						f.ecount = 1; f.elems = 0; f.cand = cands.length; cands.push(f);
						settle(f, true, stack.length);
					} else {
						top.size++; top.ecount++;
					}
				} else {
					frame = Object.assign(frameOf(i, e0, ordinal), { boxes, vis, edit, ta: lname === 'textarea', out, elems: 0 });
					frame.ecount = 1;
					if (nm.indexOf('-') >= 0) { frame.cand = cands.length; cands.push(frame); }
				}
			} else if (t === 3 || t === 4) {
				name.push(str(cur.nodeName)); attrs.push([]);
				value.push(top.ta || top.edit ? empty : str(cur.data));
			} else if (t === 8) {
				name.push(str(cur.nodeName)); attrs.push([]); value.push(str(cur.data));
			} else {
				name.push(str(cur.nodeName)); attrs.push([]); value.push(-1);
			}
			if (t !== 1) top.size++;
		}
		if (frame !== null && cur.firstChild !== null) {
			stack.push(frame);
			cur = cur.firstChild;
			continue;
		}
		for (;;) {
			const sib = cur.nextSibling;
			if (sib !== null) { cur = sib; break; }
			const p = cur.parentNode;
			if (p === null || p === document) { cur = null; break; }
			settle(stack.pop(), true, stack.length);
			cur = p;
		}
	}
	// The subtrees still open end here; a cut leaves them unread to their
	// end.
	rest.at = cur; rest.depth = stack.length;
	while (stack.length > 1) settle(stack.pop(), !cut, stack.length);
	const docFrame = stack[0];
	settle(docFrame, !cut, 0, true);
	let labelsBeyond = false;
	if (cut) {
		// The count of all labels is the browser's cached collection,
		// counted once while the document does not change; only when it
		// says labels lie beyond are they selected by their for attribute.
		labelsBeyond = document.contentType !== 'text/html' ||
			document.getElementsByTagName('label').length > labelsAll && document.querySelectorAll('label[for]').length > labels;
	}
	// The plan: entries of node, depth and element count; each candidate
	// names the entry that says of it and its place among the entry's
	// elements.
	const plan = [], cover = new Array(cands.length).fill(-1), candidates = [];
	const entry = (f, depth, count) => { plan.push(f.i, depth, count); return plan.length / 3 - 1; };
	const covered = (f, k, at) => { if (cover[f.cand] < 0) { cover[f.cand] = k; candidates.push(f.i, k, at); } };
	const coverAll = (f, k, base) => {
		if (f.cand >= 0) covered(f, k, f.e0 - base);
		for (const c of f.sub || []) coverAll(c, k, base);
	};
	const visit = (f, all) => {
		const choice = all ? f.allChoice : f.inChoice;
		if (choice === 'W') { coverAll(f, entry(f, -1, f.ecount + f.restElems), f.e0); return; }
		if (all) {
			if (f.cand >= 0) covered(f, entry(f, 0, 1), 0);
			visit(f, false);
			return;
		}
		if (choice === 'S') {
			for (const c of f.sub || []) visit(c, true);
			return;
		}
		const k = entry(f, 1, f.complete ? f.elems : handles[f.i].children.length);
		for (const c of f.sub) {
			if (c.cand >= 0) covered(c, k, c.place);
			visit(c, false);
		}
	};
	visit(docFrame, false);
	const kept = globalThis.__domsnapCaptures || (globalThis.__domsnapCaptures = new Map());
	kept.set(id, handles);
	for (const k of kept.keys()) {
		if (kept.size <= keep) break;
		kept.delete(k);
	}
	return JSON.stringify({ capture: {
		documents: [{
			nodes: { parentIndex: parent, nodeType: type, nodeName: name, nodeValue: value, attributes: attrs,
				inputChecked: { index: checked }, shadowRootType: { index: shadowIndex, value: shadowValue } },
			layout: { nodeIndex: lnode, styles: lstyles },
		}],
		strings,
		horizon: { cut, labelsBeyond },
	}, plan, candidates, shadow });
})`
