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
// An element with an open shadow root is written as a whole capture writes
// it: its shadow root follows it as a fragment node in the shadowRootType
// table, and its light children are not written (a whole capture walks the
// flat tree, where they are not the host's children). A closed shadow root
// is invisible to every script; closed roots are attached to custom
// elements in practice, so the walker lists the custom elements that have
// children (candidates: each one's index, its parent's, and its place among
// the parent's element children), and the caller asks the browser which of
// them host one (nodeHandles.closedHosts).
//
// Otherwise it returns one string, JSON of {"capture": ...,
// "candidates": [...]}: the browser sends a string at a fraction of what the
// same tables cost it as an object. The nodes written are kept, in order (null for a shadow
// root), in the isolated world's global __domsnapCaptures, a map from the
// capture's id that holds the last keep captures, where only this package
// looks, to find backend node ids when something reads them.
const walkerSource = `(async function (budget, limit, wait, id, keep) {
	'use strict';
	if (wait) await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
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
	const handles = [document], candidates = [];
	const empty = str('');
	let labels = 0, labelsAll = 0, cut = false, paid = 1; // the document is paid for
	// A frame per open element: its index, whether its children may have
	// boxes, the visibility the reader gives it, whether it is or lies in an
	// editing host, whether it is a textarea, whether it is or lies in an
	// element a scan does not enter, and how many element children it has
	// met.
	const stack = [{ i: 0, boxes: true, vis: 'visible', edit: false, ta: false, out: false, elems: 0 }];
	const skipped = new Set(['head', 'script', 'style', 'template', 'noscript', 'title']);
	let cur = document.firstChild;
	while (cur !== null) {
		const top = stack[stack.length - 1];
		const t = cur.nodeType;
		let frame = null;
		if (t === 1 || t === 3 || t === 4 || t === 8 || t === 10) {
			const root = t === 1 ? cur.shadowRoot : null;
			if (handles.length + (root === null ? 1 : 2) > limit || (!top.out && paid >= budget)) { cut = true; break; }
			if (!top.out) paid++;
			const i = handles.length;
			handles.push(cur); parent.push(top.i); type.push(t);
			if (t === 1) {
				const nm = cur.nodeName, lname = lowerName(nm), ordinal = top.elems++;
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
				} else {
					frame = { i, boxes, vis, edit, ta: lname === 'textarea', out, elems: 0 };
					if (nm.indexOf('-') >= 0 && cur.firstChild !== null) candidates.push(i, top.i, ordinal);
				}
			} else if (t === 3 || t === 4) {
				name.push(str(cur.nodeName)); attrs.push([]);
				value.push(top.ta || top.edit ? empty : str(cur.data));
			} else if (t === 8) {
				name.push(str(cur.nodeName)); attrs.push([]); value.push(str(cur.data));
			} else {
				name.push(str(cur.nodeName)); attrs.push([]); value.push(-1);
			}
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
			stack.pop();
			cur = p;
		}
	}
	let labelsBeyond = false;
	if (cut) {
		// The count of all labels is the browser's cached collection,
		// counted once while the document does not change; only when it
		// says labels lie beyond are they selected by their for attribute.
		labelsBeyond = document.contentType !== 'text/html' ||
			document.getElementsByTagName('label').length > labelsAll && document.querySelectorAll('label[for]').length > labels;
	}
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
	}, candidates });
})`
