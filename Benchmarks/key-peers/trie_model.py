#!/usr/bin/env python3
"""What the trie of a key list costs, modelled, with the keys as they are and with their country tails
cut off: a design measure for issue 22 (how much of LABELS, NODES and CHILDREN the ", cc" tail every
key carries takes), not an encoding.

The model is the format's path-compressed trie ("The trie" in include/mmsearch_format.h) without the
summaries' early edge ends: a node for the empty prefix, for each distinct key and for each longest
common prefix of two neighbours in byte order; a node's label is its prefix less its parent's. Its
label pool is what LABELS stores: each distinct label once, ended by a byte, a label that is the tail
of another stored inside it (no hot window). On the README's keys it gives 1,327,281 nodes and a
3,219,004-byte pool where `mmsearch info` gives 1,328,839 nodes and 3,253,008 bytes of labels.

usage: Benchmarks/key-peers/trie_model.py KEYS
  KEYS: one key a line, as Benchmarks/key-peers/keys.py writes them (repeats allowed).
Prints two lines, `trie_model=keys|names nodes=N distinct_labels=D label_pool_bytes=P
node_label_bits=W`: the keys as given, then each key without its tail (", " and two bytes at its end).
"""
import sys


def model(keys):
    """Nodes, distinct labels and the suffix-shared label pool of the path-compressed trie of `keys`."""
    keys = sorted(set(keys))
    prefixes = set(keys)
    prefixes.add(b"")
    for a, b in zip(keys, keys[1:]):
        n, m = 0, min(len(a), len(b))
        while n < m and a[n] == b[n]:
            n += 1
        prefixes.add(a[:n])
    labels, path = [], []
    for prefix in sorted(prefixes):  # a prefix sorts before its extensions
        while path and not prefix.startswith(path[-1]):
            path.pop()
        if path:
            labels.append(prefix[len(path[-1]):])
        path.append(prefix)
    distinct = sorted({label[::-1] for label in labels})  # reversed: a tail is a prefix of its owner
    pool = 1 + sum(len(r) + 1 for i, r in enumerate(distinct) if not (i + 1 < len(distinct) and distinct[i + 1].startswith(r)))
    return len(prefixes), len(distinct), pool


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[2])
    with open(sys.argv[1], "rb") as file:
        keys = [line.rstrip(b"\n") for line in file]
    names = [k[:-4] if len(k) >= 4 and k[-4:-2] == b", " else k for k in keys]
    for name, these in (("keys", keys), ("names", names)):
        nodes, distinct, pool = model(these)
        print(f"trie_model={name} nodes={nodes} distinct_labels={distinct} label_pool_bytes={pool} node_label_bits={max(1, (pool - 1).bit_length())}")


main()
