/*
 * mmsearch_format.h: the mmsearch index file format, version 31. This header is the spec.
 *
 * An index answers "which cities have a name, or a word of a name, that starts with this folded
 * prefix, and which of them are the biggest" with one walk down a path-compressed trie. The walk ends
 * at a node that covers a contiguous range of ENTRIES (one entry per search key); the node's SUMMARY
 * (kept for every node with more than MMS_SUMMARY_THRESHOLD entries) holds the exact number of
 * distinct cities in that range and its first ranked page, so both cost O(1) however many match.
 *
 * ---------------------------------------------------------------------------------------------------
 * File layout (every integer little-endian; every section starts at a multiple of 8 bytes):
 *
 *   offset 0                mms_header                   magic, version, byte-order mark, counts,
 *                                                         checksum, and the section table
 *   sections[LABELS]        uint8_t[]                    edge labels, each ended by a 0xFF byte, or
 *                                                         0xFE where its keys' country tail follows
 *   sections[NODES]         packed node_count x node_label_bits, then uint32_t[E]  trie nodes
 *                                                         (mms_node's field: the label; the greatest
 *                                                         label offsets stored apart), children of a
 *                                                         node contiguous and sorted
 *   sections[CHILDREN]      mms_child_block[(node_count + 31) / 32 + 1]  where each node's children
 *                                                         are, then each block's further packed child
 *                                                         counts and its children's entry deltas
 *                                                         (see "The trie")
 *   sections[ENTRIES]       packed entry_count x entry_bits, then uint32_t[P]  one entry per
 *                                                         search key, in key order (see "Packed
 *                                                         arrays"), then the alternates that are a
 *                                                         record's PRIMARY name (see "Entries' kinds")
 *   sections[SUMMARIES]     packed summary_count x summary bits  counts and first pages of the big
 *                                                         nodes (mms_summary's fields)
 *   sections[TOP]           top_bits bits, then the packed tail  the summaries' ranked first
 *                                                         pages, then the country pages' and the near
 *                                                         lists': each record's best entry, as its
 *                                                         position among its node's entries or its name
 *                                                         number ("TOP pages"), then its rank, the
 *                                                         record's best class and least kind at the node
 *                                                         ("A TOP rank")
 *   sections[RECORDS]       packed record_count x record bits, then uint32_t[E]  cities in
 *                                                         primary-key order (see "Order"; mms_record's
 *                                                         fields, "Packed arrays"), the greatest few ids
 *                                                         as a number into the array after (see "Values
 *                                                         stored apart")
 *   sections[POPULATION]    packed record_count x population_bits, then uint32_t[E]: each record's
 *                                                         population, the greatest few as a number into
 *                                                         the array after (see "Values stored apart");
 *                                                         empty when every population is 0 (the list
 *                                                         alone)
 *   sections[ALTERNATES]    packed alternate_count x name_offset_bits  where the cities' other
 *                                                         names are in NAMES (their records are in
 *                                                         ALTERNATE_BLOCKS; mms_alternate's fields)
 *   sections[NAMES]         uint8_t[]                    the records' and alternates' names, each
 *                                                         encoded with its table's symbols and ended by
 *                                                         0xFF (see "Encoded names")
 *   sections[ID_ORDER]      packed record_count x record_bits  record indices sorted by (id, index)
 *   sections[RECORD_REGIONS] packed record_count x region_bits, then uint32_t[E], or empty: each
 *                                                         record's region, as its number among its
 *                                                         country's (see "Records' regions"), the few
 *                                                         in another country's as a number into the
 *                                                         array after; empty when no record has one
 *   sections[REGIONS]       mms_region[region_count]     regions (GeoNames admin1), sorted by (country, code)
 *   sections[COUNTRIES]     mms_country[country_count]   country names and ISO3 codes, sorted by code
 *   sections[QUALIFIER_NAMES] mms_qualifier_name[qualifier_name_count]  other names of countries and
 *                                                         regions (GeoNames' alternate names file)
 *   sections[SPELLINGS]     packed spelling_count x (MMS_SPELLING_FORM_BITS + spelling_name_bits),
 *                                                         then uint32_t[E]  the cities' generated
 *                                                         spellings: each the form it takes and which
 *                                                         of its record's names it is made from (see
 *                                                         "Spellings")
 *   sections[SOURCE]        mms_source + name bytes      what the index was built from
 *   sections[SPATIAL]       packed record_count x point bits  the records' coordinates and numbers
 *                                                         in k-d tree order (mms_spatial_point's fields;
 *                                                         see "The spatial index")
 *   sections[COUNTRY_RUNS]  mms_country_run[country_run_count]  each country's entries, sorted by code
 *   sections[ENTRY_BLOCKS]  mms_entry_block[entry_block_count]  their positions, 128 a block
 *   sections[ENTRY_DELTAS]  uint8_t[]                    the blocks' steps, gamma coded, then 8 zero bytes
 *                                                         (see "Country entries")
 *   sections[SYMBOLS]       mms_symbol[symbol_count]     the symbol tables NAMES is encoded with
 *   sections[NAME_TABLES]   mms_name_table[name_table_count]  which names each table encodes
 *   sections[PLACE_NAMES]   uint8_t[]                    regions' and countries' texts (names, folded
 *                                                         names, codes, other names), original UTF-8,
 *                                                         each ended by 0xFF
 *   sections[COUNTRY_PAGES] mms_country_page[]           the count and first page of each country with
 *                                                         many records at a big node (see "Country pages")
 *   sections[ALTERNATE_BLOCKS] mms_alternate_block[alternate_block_count]  the alternates' and
 *                                                         spellings' records, 32 a block
 *   sections[ALTERNATE_DELTAS] uint8_t[]                 the blocks' packed deltas, then 8 zero bytes
 *                                                         (see "Alternates' records")
 *   sections[NEAR_POINTS]   packed record_count x near point bits  the records in the order of a k-d
 *                                                         tree over name order and place, each with a
 *                                                         population bound (see "Near a point")
 *   sections[NEAR_LISTS]    mms_near_list[]              at big nodes, the matches not by a primary
 *                                                         name's prefix, by base (see "Near a point")
 *   sections[SPATIAL_BOUNDS] mms_spatial_bounds[spatial_bound_count]  where the records under each
 *                                                         inner node of SPATIAL's tree's first depths
 *                                                         lie, in its box (see "Bounds" in "The
 *                                                         spatial index")
 *   sections[RECORD_COUNTRIES] mms_record_country[]      the country codes the records hold, as given
 *                                                         (see "Records' countries")
 *   sections[RECORD_NAME_BASES] packed ceil(record_count / MMS_RECORD_NAME_BLOCK) x name_offset_bits,
 *                                                         then uint32_t[E]: where each block of
 *                                                         records' names starts in NAMES, then the
 *                                                         greatest few of their offsets from it (see
 *                                                         "Records' names")
 *
 * The sections follow one another in this order. Zero bytes pad each section to the next multiple of
 * 8; padding belongs to no section, and the file ends where the RECORD_NAME_BASES section ends.
 *
 * ---------------------------------------------------------------------------------------------------
 * Names and keys (shared/peers/rank.py is the normative definition; fold() is shared/peers/fold.py,
 * implemented by the MMSearch module's Folding, its table generated by tools/gen_fold_table.py).
 *
 * A record has a display name (mms_record.name_*) and a list of names: names[0], its primary name,
 * and the alternates after it. Built from a list alone, names = [display name]; joined with a
 * GeoNames dump by id, names = [list name, dump name, dump ASCII name, dump alternate names...]; from
 * a dump alone, names = [name, ASCII name, alternate names...]. Dropped from the list: empty names,
 * alternates written in lowercase ASCII only (machine transliterations), and every name whose fold
 * equals the fold of an earlier name of the record. names[0] is the display name except when the
 * display name is empty and was dropped; an empty list falls back to [display name].
 *
 * With tail = ", " + fold(country), or "" when the country is empty, every name n of a record gives
 *   the key fold(n) + tail                    of kind MMS_KIND_PRIMARY for names[0], else MMS_KIND_ALTERNATE;
 *   the key fold(n)[p:] + tail                of kind MMS_KIND_WORD for every word start p > 0 of fold(n),
 * where p is a word start when fold(n)[p] is not a separator and fold(n)[p - 1] is one; the
 * separators are the bytes ' ' '-' '/' '(' ')' '.' ',' '\'' '"'. Each key is one entry.
 *
 * An entry is a kind (2 bits) and the number of the name it was made from (a reader holds it as a
 * uint32_t: kind in the top two bits, MMS_ENTRY_KIND_SHIFT, name number in the low 30; ENTRIES and TOP
 * store less of it, see "Entries' kinds"): a number below record_count is that record's display name; a
 * number n >= record_count is ALTERNATES[n - record_count], whose record field names its record. An
 * alternate's text is NAMES from its name_offset up to the next MMS_STRING_END, decoded ("Encoded
 * names").
 * Entries are sorted by (key bytes, kind, record index, name number), with no two equal.
 *
 * Entries' kinds. Most of a kind follows from the name number, so it is not stored whole. ENTRIES
 * stores whether an entry is a WORD (MMS_ENTRY_WORD_BITS) and its name number; any other entry is
 * PRIMARY for a number below record_count (a display name is its record's names[0] or no name of it),
 * SPELLING for a spelling's, and ALTERNATE for a given alternate's, except the few given alternates
 * that stand in for an empty display name as names[0]: those are PRIMARY, and listed after ENTRIES'
 * packed entries and their tail as P uint32_t name numbers, strictly increasing (P the header's
 * primary_alternate_count, at most record_count; 4 on the README's index, 0 on the list alone). TOP
 * stores the name number alone: a page's entry is its record's best entry, whose class is the record's
 * best class (its TOP rank), and a class has one kind (Ranking: classes 0 and 2 PRIMARY, 4 and 6 WORD, 1, 3
 * and 5 ALTERNATE for a given alternate's name and SPELLING for a spelling's). On the README's index
 * that is 1 bit less for each of 1,245,450 entries and 2 less for each of 903,543 page entries: 0.38 MB.
 *
 * Order. A record's primary key is fold(display name) + tail. RECORDS are sorted by (primary key
 * bytes, display name bytes, id), so a record's index is its place in name order.
 *
 * Matching and ranking. A query q matches a record when one of its keys starts with fold(q) ("words",
 * the default), or one of its keys of kind PRIMARY or ALTERNATE does ("name"); each record counts
 * once. A matching entry's class, from the length of the name part of its key (the key without its
 * tail; for a WORD, from the word start on) and the query's, both in bytes, "whole" when the query is
 * at least as long: 0 PRIMARY whole (weight 1000), 1 ALTERNATE or SPELLING whole (200), 2 PRIMARY
 * (100), 3 ALTERNATE or SPELLING with 2 * len(fold(q)) >= len(name) (20), 4 WORD whole (10),
 * 5 ALTERNATE or SPELLING (1), 6 WORD (1). An entry's kind for the tie-break is 0 for classes 0 and
 * 2, 1 for 1, 3 and 5, 2 for 4 and 6. A record's score is its population times the weight of its
 * best (least) class among its matching entries, its kind the least kind among them. Ranked order is
 * (score descending, kind ascending, record index ascending); name order is record index ascending.
 * A record's best entry, the one a result reports as matched, is its matching entry of greatest
 * weight, then least kind, then first in entry order.
 *
 * Regions and countries (built with GeoNames' admin1CodesASCII.txt and countryInfo.txt). A record
 * built from a dump row (joined by id, or a dump alone) has the region named "CC.CODE" by the row's
 * country code and admin1 code, when the admin1 file names it (a non-empty name): RECORD_REGIONS gives
 * its index in REGIONS ("Records' regions"). A record whose country is a code in COUNTRIES has that country's name and ISO3
 * code. A record's qualifiers are, folded and without repeats, in this order: its country code, its
 * ISO3 code, its country's name, its region's name, and its region's code when that is at least two
 * letters A-Z. The header flag MMS_FLAG_QUALIFIED is set exactly when some record has a region or a
 * country with a non-empty name; only then does "Name, Qualifier" match (in "words" only): fold(q)
 * splits as X + S + Q with S one of ", " "," " ", X non-empty and Q not starting with a space, and a
 * record matches when X equals fold(n) for one of its names n (a PRIMARY or ALTERNATE entry whose key
 * is X + tail) and Q fits its qualifiers: Q is empty, or the start of one, or one whole, then S, then
 * the rest fitting in turn. Such a match weighs 100 for a PRIMARY entry, else 20, with that entry's
 * kind. It adds to the matches above; on equal weight and kind a key match is the entry reported.
 * Summaries count key matches only: a reader adds qualifier matches at search time.
 *
 * Typos (a reader's fallback; nothing of it is stored). When a query matches no record at all and
 * fold(q) has at least 4 Unicode scalars, a record matches when one of its keys (of the match mode)
 * has a prefix within optimal-string-alignment distance 1 of fold(q), on Unicode scalars, with the
 * first scalar equal; when none does and fold(q) has at least 8 scalars, within 2. Weights, order and
 * counts are then as above, the query length being fold(q)'s.
 *
 * A record's names, in order, are its display name (unless it is empty and the record has alternates)
 * and then its alternates in ALTERNATES order: ALTERNATES is sorted by record, and a record's
 * alternates keep the order of its names, so names[0], the PRIMARY one, is the first of these.
 *
 * ---------------------------------------------------------------------------------------------------
 * The trie. Node 0 is the root and stands for the empty prefix; every other node has one parent and
 * the label of the edge from it (non-empty, ended by 0xFF in LABELS; labels may share bytes, a label
 * being the tail of another; LABELS may also hold 0xFF bytes no label uses, where the builder aligns
 * the top of the trie's labels to a 64 KiB window of the file). A label ended by MMS_LABEL_TAIL_END
 * (0xFE) instead goes on with 4 bytes LABELS does not hold: the country tail of the node's own keys,
 * ", " + fold(code) of the country of the record its first entry names (702,105 of the README's
 * index's 1,328,839 labels end with one, and without it they share their bytes: "ondon" for
 * "london, gb" and "london, ca"). Such a label has at least one byte before its end byte, and its node
 * has own entries (keys that are its prefix exactly), each with that tail. The labels on the path from the root
 * spell the node's prefix P, and the node's entries are exactly the entries whose key starts with P:
 * first those whose key is P itself, then its children's, child by child. A node's children are
 * contiguous, sorted by the first byte of their label, which differ; nodes are numbered breadth
 * first, so the children of node n follow those of node n - 1 and are numbered after n. CHILDREN says
 * where they are, a block every 32 nodes (MMS_CHILD_BLOCK_NODES, version 31): the block's first
 * child, a mask of its nodes with children and their counts (mms_child_block). Node n, in block b =
 * n / 32, has children when bit n % 32 of the block's mask is set, as many as its count says (below),
 * the first of them the block's first plus the counts of the nodes before n in the block.
 *
 * A node's entries are entries[entry_first ..< end], where end is the next sibling's entry_first, or
 * for a last child its parent's end; the root's are entries[0 ..< entry_count]. A child's entry_first
 * is stored as its delta from its parent's (at least 0, below the parent's entry count). A block holds
 * its head (the width w of its children's deltas, head & MMS_CHILD_WIDTH_MASK, the least that holds
 * the greatest of them, 0 when every one is 0, at most 32; and MMS_CHILD_BYTE_COUNTS exactly when one
 * of its nodes has more than 2^MMS_CHILD_COUNT_BITS children) and, without MMS_CHILD_BYTE_COUNTS, the
 * counts less one of its first MMS_CHILD_BLOCK_COUNTS (16) nodes with children, in node order, in
 * MMS_CHILD_COUNT_BITS each. Its bits (CHILDREN's bits, a packed array of child_bits one-bit values,
 * from its bits_first) are: the counts less one of its further nodes with children in
 * MMS_CHILD_COUNT_BITS each, or, with MMS_CHILD_BYTE_COUNTS, every node's count as a byte, 32 of them;
 * then the deltas of its c children, numbered first ..< first + c, in w bits each. The next block's
 * bits start right after them. So a walk knows each node's range from its parent's range and the
 * parent's block alone: the block (a node without children, 65% of them, needs no more; a block has
 * 10.9 nodes with children on average on the README's index, so most counts are in it), then one load
 * of a child's delta, as format 30 read them. Why: format 30 gave each node a 4-bit count and each 14
 * nodes a 16-byte block; a node now takes a bit of the mask, one with children 4 bits more, and 32
 * nodes a 24-byte block. CHILDREN 2,314,324 -> 1,930,583 bytes on the README's index (the blocks 1.00
 * MB, the counts past the blocks' 0.02, the byte counts of 1,076 of its 41,527 blocks 0.03, the deltas
 * 0.88 at a width for 32 nodes' children instead of 0.77 for 14's), 587,810 -> 492,541 on the list
 * alone. Tighter layouts measured slower (beside format 30, interleaved, typing-queries and
 * typing-typos): each count in unary (LOUDS: Jacobson 1989; marisa-trie), 2 bits a node, 1,578,705
 * bytes on the README's index, but a node's count found by a select over one or two loads (search
 * alone 1.10x at p50, 30 runs); the head and every count among the block's bits behind a 12-byte
 * block (the README's index 26,323,640 bytes), one dependent load more a node (typing-typos 1.05x at
 * p50, 12 runs).
 *
 * Lookup of a folded query q: start at the root; while q is not empty, binary-search the current
 * node's children for the one whose label starts with q[0]; none means no match. With label L: if q
 * ends inside L, q must be a prefix of L and the answer is that child; otherwise L must be a prefix of
 * q, q loses L, and the walk goes on at the child. Every step consumes at least one byte of q, so a
 * walk takes at most |q| steps, whatever the file says.
 *
 * Summaries. Every node with more than MMS_SUMMARY_THRESHOLD entries has exactly one mms_summary, and
 * no other node has one; SUMMARIES is sorted by node. A query ending at or inside the edge into a
 * summarized node reads its counts and first ranked page there. The builder ends an edge early (a
 * node with one child) wherever needed so that the first page of every summarized node is the same
 * for every query length along its edge: no alternate entry below it changes weight between the
 * shortest and the longest query that reaches it. Smaller nodes are answered by reading their entries.
 * A TOP entry's rank is the class and kind that rank its record there ("A TOP rank"): a first page
 * merged with "Name, Qualifier" matches compares them with the stored ones without reading names.
 *
 * TOP pages (version 26). A page in TOP (a summary's, a country page's, a near list's) is its entries
 * back to back from the bit its top_first names, each a value in top_value_bits then its rank in
 * MMS_TOP_RANK_BITS. The page's node has n entries, first..first + n - 1 of ENTRIES (a reader has
 * walked to it, so it knows them). When n <= MMS_TOP_POSITION_LIMIT, or when the page is a near list
 * and max(1, bits of n - 1) is less than name_bits (version 30), an entry's value is its
 * position p among them, in top_value_bits = max(1, bits of n - 1): the entry is ENTRIES[first + p]
 * (p < n), whose kind is its rank's class's (a reader takes the name number from ENTRIES and the kind
 * from the rank; verify checks that ENTRIES' kind is the rank's and that the entry is the record's
 * best there). Otherwise the value is its name number, in top_value_bits = name_bits, and the entry's
 * kind is its rank's class's ("Entries' kinds"). The pages tile TOP in order (the summaries', then the
 * country pages', then the near lists'), each stored once (version 28): a page whose bits are those of
 * a page before it in that order (the same length and every bit alike) is not stored again, and its
 * top_first is that page's; top_bits bits in all, then zero bits to the byte and MMS_PACKED_TAIL zero
 * bytes. Why: a summarized node is small (23,767 of the README's index's 27,031
 * have at most 256 entries), so a position takes 6 to 8 bits where a name number takes 20; reading
 * the entry costs a page one read more, inside the node's few hundred bytes of ENTRIES, which a reader
 * asks for before it reads the page's records. TOP 2.71 -> 1.92 MB on the README's index. A page
 * stored once for every node it is the first page of: a big node's page is often that of its one big
 * child (all its 20 best under it, at the same positions or of the same name numbers): 1.92 -> 1.87 MB
 * on the README's index (656 of its 27,031 summaries read a page stored for another), 0.60 -> 0.55 MB
 * on the list alone (1,371 of 7,294). A near list's node is big (more than MMS_NEAR_LIST_THRESHOLD
 * records), but a position among its entries still takes fewer bits than a name number: 11.9 on
 * average instead of 20 on the README's index (its 456 lists, 294,662 entries: 0.88 -> 0.59 MB of
 * TOP), 11.9 instead of 18 on the list alone (0.30 -> 0.22 MB). A reader reads each listed entry's
 * key in ENTRIES, scattered over a big node's range, so it asks for it a few entries ahead.
 *
 * ---------------------------------------------------------------------------------------------------
 * The spatial index (reverse lookups: the records nearest a point; shared/peers/rank.py, "Geography").
 * SPATIAL is an implicit k-d tree over the records' coordinates (mms_record.lat_e7, lon_e7, compared
 * as the integers they are): one mms_spatial_point per record, no node structs. Each point holds the
 * cell of its record's coordinates in the box of the node that holds it (below), so that a walk reads
 * SPATIAL's contiguous bytes to rule points out and reads RECORDS' exact coordinates only for the
 * points a cell cannot rule out, and, in record_axis, the record number and the axis bit. The node of a range [lo, hi) of SPATIAL (the root's is [0, record_count)) is
 *   a leaf when hi - lo <= MMS_SPATIAL_LEAF_SIZE: the points SPATIAL[lo ..< hi], in any order;
 *   else split at m = lo + (hi - lo) / 2: SPATIAL[m] is the node's pivot, its low child [lo, m) and
 *   its high child [m + 1, hi). The pivot's bit MMS_SPATIAL_AXIS_LONGITUDE says the axis it splits
 *   (set: longitude, clear: latitude): every point under the low child has a coordinate on that axis
 *   at most the pivot's, every point under the high child at least the pivot's.
 * A point's record number is below record_count, its axis bit zero in leaves (a reader holds both in
 * record_axis: the number in the low 29 bits, MMS_SPATIAL_RECORD_MASK, bits 29 and 30 zero, the axis
 * in bit 31). Every record appears exactly once.
 * Boxes and cells. Each node has a box [south, north] x [west, east] in 1e-7 degree, edges included:
 * the root's [-90, 90] x [-180, 180] degrees (-MMS_LATITUDE_BIAS ... MMS_LATITUDE_BIAS, and the same
 * with MMS_LONGITUDE_BIAS), a child's its parent's with the split axis cut at its pivot's cell: the low
 * child's north (or east) is the cell's north (east) edge, the high child's south (west) the cell's
 * south (west) edge. A box is cut into 2^MMS_SPATIAL_CELL_BITS rows of step_lat = ((north - south) >>
 * MMS_SPATIAL_CELL_BITS) + 1 and as many columns of step_lon = ((east - west) >> MMS_SPATIAL_CELL_BITS)
 * + 1 units; the point of the record at (lat, lon) in the node with that box stores lat_cell =
 * (lat - south) / step_lat and lon_cell = (lon - west) / step_lon, and its cell is [south + lat_cell *
 * step_lat, south + (lat_cell + 1) * step_lat - 1] x [west + lon_cell * step_lon, west + (lon_cell + 1)
 * * step_lon - 1], each edge taken no farther than the box's (a reader clamps a damaged cell so). Every
 * record lies in the box of the node that holds it (as a pivot or in a leaf), since every point under
 * a low child is at most its pivot's coordinate, so inside the pivot's cell's high edge. Cells are as
 * fine as the boxes are small: on the list's 209,579 cities a leaf point's cell is at most 6 m across
 * at the median and 37 m at the 90th percentile (a fixed grid of 2^11 units, about 23 m, took 41 bits a
 * point; this takes 2 * MMS_SPATIAL_CELL_BITS).
 * Bounds. A node's box reaches out to its ancestors' pivots, however far its records lie from them
 * (a coastal node's box goes out to sea, to the split its parent made in mid-ocean); so each inner
 * node (not a leaf) of the first D depths (below) also has its bounds: the rectangle its records
 * span, rounded out to its box cut into 2^MMS_SPATIAL_BOUND_BITS rows of step_lat = ((north - south)
 * >> MMS_SPATIAL_BOUND_BITS) + 1 and as many columns of step_lon (as cells are, coarser): an
 * mms_spatial_bounds holds the row of its records' least latitude, (lat - south) / step_lat, the row
 * of their greatest, the column of their least longitude and that of their greatest; every record
 * under the node lies in [south + bounds.south * step_lat, south + (bounds.north + 1) * step_lat - 1]
 * x [west + bounds.west * step_lon, west + (bounds.east + 1) * step_lon - 1], each edge taken no
 * farther than the box's.
 * Nodes are numbered from the root's 1, the low child of node n being 2n and its high child 2n + 1,
 * so the nodes at depth k are numbered 2^k to 2^(k+1) - 1. SPATIAL_BOUNDS[n - 1] is node n's, for every
 * n below 2^D, where D = spatial_bound_depth(record_count), the number of depths k >= 0 at which
 * floor(record_count / 2^k) > MMS_SPATIAL_LEAF_SIZE (a range at depth k holds at most that many
 * points: a child's is at most half its parent's), but at most MMS_SPATIAL_BOUND_DEPTH;
 * spatial_bound_count = 2^D - 1. The entry of a leaf, or of a number no node has, is zero; a node
 * numbered 2^D or more has none (its box stands for it).
 * A search tests a node's box (the quick test), then its bounds, before entering it. Why 13 depths:
 * on reverse-points.txt's 400 slowest points (at sea, far from any city) bounds on 11, 12, 13 and 15
 * depths took the walk's instructions to 0.78x, 0.75x, 0.71x and 0.67x; over every 10th point, each
 * deeper level saves fewer instructions and costs more cache misses (its bounds a cache line of their
 * own, for boxes already small): a simulated 512 KiB cache missed 0.25 times a point more with 13
 * depths than without bounds, 2.0 with 15. Size: 8,191 bounds, 32,764 bytes, on the list's 209,579
 * records (all 15 depths: 131,068).
 * The builder picks the pivot as the median (by coordinate, then record number) and the axis where
 * the range's points spread more (longitude spans scaled by the cosine of the latitude).
 * A search keeps the k best (distance, id) so far and enters a node only when a lower bound of the
 * haversine distance from the point to the node's bounds (a leaf's box) can beat the k-th, and reads a record's exact
 * coordinates only when the same bound to its point's cell can: the bound takes the least
 * latitude difference, the least longitude difference around the circle (so across the 180th
 * meridian), and the least cosine of the box's latitudes (0 when a box reaches a pole) separately,
 * each of which only lowers sin^2(d / 2R); filters skip records, and a `within` disc or a box filter
 * skips whole nodes whose box lies outside it.
 *
 * ---------------------------------------------------------------------------------------------------
 * Near a point (a prefix's first page ranked near a point; shared/peers/rank.py, "Geography"). A page
 * ranks by score = (population + 1) x weight x boost(distance), boost at most 1001. A big node's
 * matches are of two sorts. Those whose best class is 2 (a primary name's prefix, weight 100) are
 * records whose primary key starts with the prefix: the summary's primary range of records (records
 * are numbered in name order), but for a record without a display name, whose first other name stands
 * in as its primary name: it is numbered by its empty name. The others (best class 0: a primary name
 * typed whole; 1, 3, 5: another name; 4, 6: a word; and those records) are listed at the node.
 * NEAR_POINTS is an implicit k-d tree over (record number, latitude, longitude), as SPATIAL is over
 * place: one point per record, no node structs. The node of a non-empty range [lo, hi) at depth d
 * (the root's [0, record_count) at depth 0) holds first its top, NEAR_POINTS[lo]: a record whose
 * population bound is the greatest of the node's (the builder takes the least record number of
 * those). A node is a leaf when hi - lo <= MMS_NEAR_LEAF_SIZE: its other points NEAR_POINTS[lo + 1 ..<
 * hi], in any order. Else the rest [lo + 1, hi) is split at m = lo + 1 + (hi - lo - 1) / 2
 * (NEAR_POINTS[m] its pivot, its low child [lo + 1, m) and high child [m + 1, hi), at depth d + 1) on
 * axis d % 4: 0 and 1 the record number (every record under the low child numbers below the pivot's,
 * every one under the high child above it), 2 the latitude and 3 the longitude (every record under
 * the low child at most the pivot's coordinate, under the high child at least it). The record number
 * is split twice as often as each coordinate: a prefix's range is narrow, and a walk leaves the nodes
 * outside it. The top takes a node's greatest bound out of its subtrees (a priority search tree's
 * rule), so a child's bound is its own top's, and bounds fall quickly down the tree (under version
 * 18's pivots, which held their subtrees' greatest, a big city's bound stayed on every node above
 * it). A node's box is the world (latitude -90 to 90 and longitude -180 to 180 degrees, in 1e-7
 * degree, edges included) cut at each latitude or longitude pivot above it: the low child's at most
 * the pivot's record's coordinate on the axis, the high child's at least it; a node's records (its
 * top's too) lie in its box and between the record-number splits above it. A point is its record
 * number and its record's population bound: the least code c (MMS_NEAR_BOUND_BITS) for which
 * (population + 1) <= 2^(c / MMS_NEAR_BOUND_CODES_PER_DOUBLING) (as a double; 127 bounds every number), stored in 0 bits (read as
 * 0) when the index has no populations: then every bound is 0, and 7 bits a record (0.18 MB on the
 * list alone) would say nothing. A bound is at most 2^(1/4) (19%) above its population + 1, coarse
 * enough for a walk that measures a record before it scores it; at version 28 it was a byte, of
 * 2^(c / 8), and NEAR_POINTS 26 KB more on the README's index. It holds no cell (as
 * SPATIAL's do): a walk reads a pivot's coordinates from RECORDS to cut its box, and a record's to
 * measure it, only where its bound can still reach the page.
 * NEAR_LISTS holds, sorted by node, one mms_near_list for each summarized node with more than
 * MMS_NEAR_LIST_THRESHOLD records whose other matches (best class not 2, or outside the primary range)
 * that may reach a page (base x 1001 at least the least base of the node's stored page, which a search
 * scores first) number at most
 * MMS_NEAR_LIST_MAX: a range of TOP after the country pages' (each record's best entry,
 * its class and kind, for a query as long as the node's prefix, as a first page holds them), in order
 * of (population + 1) x weight descending, then record number. A node without one is scanned.
 * A search near a point with no filter at a node with a list scores the summary's stored page, then
 * walks the tree best first from the node with the greatest bound, bound(its top's c) x 100 x
 * boost(the least distance to its box), leaving nodes whose record numbers miss the primary range, scoring each
 * record of the range as class 2; then reads the list until (population + 1) x weight x 1001 falls
 * below the page's last score. A record on both keeps its better score (the list's).
 *
 * ---------------------------------------------------------------------------------------------------
 * Encoded names (FSST: Boncz, Neumann, Leis, "FSST: Fast Random Access String Compression", VLDB 2020).
 * NAMES holds the records' display names, the alternates' names and the names spellings are made
 * from ("Spellings"), each stored once however many refer to it, encoded: a name is a string of
 * codes, then MMS_STRING_END. NAMES is cut into name_table_count consecutive runs, run t =
 * NAMES[NAME_TABLES[t - 1].names_end ..< NAME_TABLES[t].names_end] (from 0 for t = 0), each encoded
 * with its own symbol table, SYMBOLS[NAME_TABLES[t - 1].symbols_end ..< NAME_TABLES[t].symbols_end]
 * (from 0): a name lies inside one run,
 * its end byte too, and is encoded with that run's table. In it, a code c below the table's length
 * stands for that symbol's bytes; MMS_NAME_ESCAPE stands for the byte after it, itself (never 0xFE or
 * 0xFF: those are no byte of UTF-8); every other code is invalid. Decoded, a name is non-empty UTF-8 of
 * at most MMS_MAX_STRING_LENGTH bytes (a display name may be empty: its encoding is empty). So a name
 * decodes alone, from its offset, without reading any other, and the scan for its end byte finds it:
 * no code, symbol index or escaped byte is 0xFF. A record's name_offset is where its encoded name
 * starts; the name ends at the next MMS_STRING_END (at name_offset itself for an empty display name).
 * The builder puts names written mostly in one script together (Latin, Greek, Cyrillic, Armenian,
 * Georgian and Hebrew, Arabic, Indic, Thai and Southeast Asian, kana, CJK ideographs, Hangul, the rest:
 * "Encoded names" in docs/format.md), trains a table on each group (the paper's algorithm: five rounds
 * of encoding its names with the table so far and keeping the MMS_MAX_SYMBOLS symbols, or
 * concatenations of two consecutive ones, that save the most bytes) and encodes each name greedily,
 * longest symbol first.
 * NAME_TABLES: name_table_count = its length / sizeof(mms_name_table), at most MMS_MAX_NAME_TABLES;
 * names_end strictly increasing, the last NAMES' length; symbols_end increasing by at most
 * MMS_MAX_SYMBOLS a table, the last symbol_count. SYMBOLS: symbol_count = its length /
 * sizeof(mms_symbol); each symbol has a length from 1 to 8 and zero bytes past it. Regions' and
 * countries' texts, which qualifiers compare as they are stored, are in PLACE_NAMES, not encoded.
 *
 * ---------------------------------------------------------------------------------------------------
 * Values stored apart (POPULATION's populations, RECORDS' ids, NODES' label offsets, RECORD_REGIONS' values,
 * SPELLINGS' name places, whose apart values are name offsets: "Spellings"). A few cities are far bigger than the
 * rest (on the README's index 8,779 of 209,579 have 56,757 people or more, the greatest 22 million),
 * and a few ids far greater (3 of the list's 209,579 are 2^23 or more, the greatest 102,908,597), so
 * such a field holds each record's value in w bits (population_bits, record_id_bits) and the greatest
 * ones apart, after the section's packed values and their tail: E uint32_t values, E a header field
 * (population_apart_count, record_id_apart_count, record_name_apart_count, node_label_apart_count,
 * record_region_apart_count, spelling_apart_count; so the section's length
 * is the packed array's and 4 x E, checked at open with E at most 2^w, reading the header alone). With the threshold T = 2^w - E, a field's value v below T is the
 * record's value, and a v at or above T says its value is the (v - T)-th of those numbers (v - T < E
 * always: no read to check). Every value of T or more is stored so, none below, and the records using
 * them take them in record order, each once. The builder picks the w that makes the section smallest
 * (w x record_count + 32 x E bits; the least such w). On the README's index: populations w = 16 and E
 * = 8,779, 0.45 MB instead of 0.65 MB at 25 bits a record; ids w = 23 and E = 3, 4 bits a record less
 * than the greatest's 27 (0.10 MB). A read costs one comparison more (and one load for the few).
 * NODES' label offsets (version 27; "the records" above are then the nodes, in node order, and each
 * offset is checked against LABELS where it is read, as a packed one is): LABELS on the README's index
 * is 2,125,275 bytes, 28,123 past 2^21, so at version 26 every offset took 22 bits for the few labels
 * laid out last. The builder lays out last the labels that the fewest nodes use for their bytes (long
 * labels of one leaf each), so that few nodes point past the threshold: w = 21 and E = 706, NODES
 * 3,654,316 -> 3,491,035 bytes (-0.16 MB; the list alone keeps w = 19 and E = 0).
 *
 * Records' names (version 23). Records are in name order, and NAMES holds the records' names first in
 * each script's run, in record order ("Encoded names"), so a record's name offset is a little past its
 * predecessor's but for a few (a name stored once for two records not side by side, a name in another
 * script's run). A record holds, instead of its offset in name_offset_bits (23 on the README's index),
 * its offset less its block's base in record_name_bits: the records r of block b =
 * r / MMS_RECORD_NAME_BLOCK, whose base RECORD_NAME_BASES[b] is the least of their offsets, so every
 * such delta is at least 0. The deltas are a field whose greatest few are stored apart, after
 * RECORD_NAME_BASES' packed bases and their tail, as "Values stored apart" says (E uint32_t deltas,
 * E record_name_apart_count; the builder picks the w that makes RECORDS and them smallest). Record r's name offset is
 * then RECORD_NAME_BASES[b] + its delta, which a reader checks against NAMES where it reads the name.
 * On the README's index w = 11 and E = 948 (T = 1,100; a block's names span about 350 bytes at the
 * median): 0.30 MB with the bases (3,275 x 23 bits) instead of 0.60 MB; a read is one load more, in
 * 9.4 KB of bases that every page's records share. (Narrower does not pay: at 10 bits, 958 deltas are
 * 1,024 or more, and T = 2^10 - 958 would leave 66 for the rest.)
 *
 * ---------------------------------------------------------------------------------------------------
 * Records' countries. RECORD_COUNTRIES holds one mms_record_country for each country code some
 * record has, as given (two digits or ASCII letters; "us" and "US" are two codes: a record's code
 * reads back as it was given, while COUNTRY_RUNS, which filters compare, upper-cases them), strictly
 * sorted by its two bytes. A record's country field is 0 for none, else 1 + its code's number there,
 * in country_bits = bits of (the codes + 1): 8 bits for the list's 246 codes, where the code's own two
 * base-62 digits took 12 (0.10 MB less on every index with the list, for 2 bytes a code). Each code
 * also says where its country's regions start in REGIONS (first_region, for "Records' regions").
 *
 * Records' regions (version 28). REGIONS is sorted by (country, code), so a country's regions are one
 * run of it, and most records' regions lie in their own country's run: a record's region is stored as
 * its place from the start of that run, in fewer bits than its number (7 instead of 12 on the README's
 * index: Slovenia has the most regions, 96). With F the first_region of the record's code in
 * RECORD_COUNTRIES (0 for a record with no country) and R = region_count, RECORD_REGIONS holds for
 * each record v = 0 when it has no region, else v = 1 + ((its region - F) mod R), so 1 <= v <= R, and
 * a reader takes its region as F + v - 1, less R when that is R or more (F <= R: one subtraction
 * at most). A record whose region is in another country's run (a region is joined by the dump row's
 * country, which for 10 of the list's records is not the list's: GB records in Cyprus' regions, IL in
 * Palestine's) has a v past its own run's (on the real data greater than any other): the values are a
 * field whose greatest few are stored apart, after RECORD_REGIONS' packed values, as "Values stored
 * apart" says (E uint32_t values, E record_region_apart_count). On the README's index 7 bits and 10
 * values apart: 0.18 MB instead of 0.31 MB at 12 bits.
 *
 * ---------------------------------------------------------------------------------------------------
 * Spellings. A record's generated spellings (rank.py's "Spellings": "St Paul" for "Saint Paul", "Winston
 * Salem" for "Winston-Salem") are not stored as text: each is one of six forms (mms_spelling_form) of
 * one of the record's names as rank.py keeps it (the first text given of each fold, which NAMES holds
 * even when the alternate shows another text of that fold), so SPELLINGS holds the form and which
 * name it is, and a reader decodes the name and writes the form out. The name is told by its place
 * among its record's names (version 29), not by its name_offset: with r the spelling's record
 * ("Alternates' records"), place 0 is r's display name (RECORDS' name_offset) and place j >= 1 the
 * j-th of r's given alternates (ALTERNATES, in their order). The places are a field whose greatest few
 * are stored apart, after SPELLINGS' packed values, as "Values stored apart" says (E uint32_t values,
 * E spelling_apart_count; w spelling_name_bits), but for what is stored apart: a name_offset, not a
 * place. A spelling is stored apart exactly when its name is none of r's first T (= 2^w - E) names
 * (its place T or more, or a text given first that no name shows: 7 of the README's index's), and the
 * builder picks w as for a field whose values are the places, with those of no place above every
 * other. Invariants: the form below MMS_SPELLING_FORM_COUNT; a place at most r's given alternates'
 * count; a name stored apart none of r's first T names; the name decodes as every name does, and its
 * form is non-empty UTF-8 of at most MMS_MAX_STRING_LENGTH bytes. On the README's index 69,468
 * spellings: 10 bits each (7 of place: 20,776 are made from their record's display name, the median
 * place is 2 and the greatest 115), 0.09 MB instead of 26 bits (0.23 MB) at version 28 and 23 bits and
 * their texts in NAMES (0.20 + 0.64 MB) before; on the list alone, whose spellings are all of display
 * names, 4 bits each. A reader finds r's given alternates by the binary search over their records that
 * lists a record's names, only for a spelling shown as a result's matched name.
 *
 * ---------------------------------------------------------------------------------------------------
 * Alternates' records. The alternates (ALTERNATES' given ones, then SPELLINGS', numbered as name
 * numbers count them: alternate i is name number record_count + i) are sorted by record within each
 * part, so neighbouring alternates mostly belong to the same or nearby records. Their records are
 * stored in blocks of MMS_ALTERNATE_BLOCK_SIZE: block b holds alternates 32b ..< 32b + 32, its
 * least_record the least record among them, and each one's delta (its record - least_record) packed at
 * the block's width w in ALTERNATE_DELTAS from bit delta_bit on, least significant bit first (bit i of
 * the stream is bit i % 8 of byte i / 8); w = (the next block's delta_bit - delta_bit) / 32, at most
 * 32 and the least that holds the block's greatest delta (0 when all its alternates have one record).
 * The last block's slots past alternate_count + spelling_count hold zero deltas. The blocks' deltas
 * follow one another from bit 0, and a last block, after them, has least_record 0 and delta_bit where
 * the deltas end (so every block has a next): alternate_block_count = ceil((alternate_count +
 * spelling_count) / 32) + 1. The stream is followed by zero bits up to the next byte and then 8 zero
 * bytes (so that a reader may load 8 bytes at any delta's byte). So alternate i's record is two reads
 * in ALTERNATE_BLOCKS (block i / 32 and the next one's delta_bit) and one in ALTERNATE_DELTAS.
 * Size on the README's index: about 6 bits an alternate's record (4 of delta, 2 of block: 0.44 MB for
 * 586,200 alternates and spellings instead of 1.32 MB at 18 bits each).
 *
 * ---------------------------------------------------------------------------------------------------
 * Country entries (searches restricted to countries: shared/peers/rank.py, "Geography", --country).
 * For each country code some record holds (its two bytes with ASCII letters upper-cased, as a filter
 * compares them; records without a country, code 0 0, have none), the positions in ENTRIES of the
 * entries whose record has that code, ascending: a node's entries are one range of ENTRIES, so the
 * entries of a country under it are the run's positions inside that range, found by a binary search
 * over the run's blocks and read without touching any other country's; and a walk (the typo
 * fallback) skips a subtree whose range holds none of them.
 * COUNTRY_RUNS holds one mms_country_run a country, sorted by code; the blocks of run r are
 * ENTRY_BLOCKS[block_first ..< block_first + block_count], and the runs' blocks follow one another in
 * run order. A run of n positions has ceil(n / MMS_ENTRY_BLOCK_SIZE) blocks, each of
 * MMS_ENTRY_BLOCK_SIZE positions but the last (the rest). A block stores its first position; each next
 * one is the one before plus a step d >= 1, the steps Elias-gamma coded in ENTRY_DELTAS from bit
 * delta_bit on, least significant bit first (bit i of the stream is bit i % 8 of byte i / 8): with
 * z = floor(log2 d) (at most MMS_ENTRY_STEP_MAX_ZEROS), z zero bits, a one bit, then d's low z bits
 * (least significant first): 2z + 1 bits, so a step of 1 (the next entry: 60% of them on the
 * README's index) takes one bit. The blocks' codes follow one another in block order from bit 0, and
 * the stream is followed by zero bits up to the next byte and then 8 zero bytes (so that a reader may
 * load 8 bytes at any code's byte).
 * Why gamma and not a width per block (format 12): the steps are mostly 1 with a long flat tail (about
 * as many of 2 bits as of 8), so a block's longest step set the width of all 127. On the README's index
 * that was 1.48 MB of blocks and gaps; gamma codes with 8-byte blocks take 0.82 MB. A reader loads the
 * 8 bytes at a code's byte: a run of steps of 1 is their trailing ones, taken at once; a longer step
 * is a count of trailing zeros and a shift.
 *
 * Country pages (a search restricted to one country, ranked, at a big node). For every summarized node
 * and every country code (as COUNTRY_RUNS writes it) such that more than MMS_COUNTRY_PAGE_THRESHOLD
 * distinct records of that country are among the node's key matches ("words"), COUNTRY_PAGES holds one
 * mms_country_page: that number of records, and their first ranked page in TOP (as the summary's page
 * is, for a query as long as the node's prefix: the best MMS_TOP_COUNT of them in ranked order, each
 * record's best entry, with its class and kind as its rank). No other pair has one. The pages' entries
 * follow the summaries' in TOP, in page order. A summary's page holds all along the edge into its node
 * (no entry changes class there), so a country's page does too; a search restricted to that one country
 * reads its count and first page there instead of the country's entries under the node.
 * COUNTRY_PAGES is sorted by (node, code), no two equal; it holds its length /
 * sizeof(mms_country_page) pages. Size on the README's index: 3,826 pages, 61,216 bytes, and 0.26 MB of TOP.
 *
 * ---------------------------------------------------------------------------------------------------
 * Packed arrays (NODES, ENTRIES, TOP, ID_ORDER). An array of n values of w bits (1 <= w <= 64) holds
 * value i in bits i * w ..< (i + 1) * w of the section, least significant bit first (bit b of the section is
 * bit b % 8 of byte b / 8), then zero bits up to the next byte, then MMS_PACKED_TAIL zero bytes (so
 * that a reader may load 8 bytes at the byte of any value's first bit): ceil(n * w / 8) +
 * MMS_PACKED_TAIL bytes in all. A value of several fields holds them one after another from its first
 * bit, each at most 32 bits. The widths are the least that hold the values:
 *   NODES: a node is its label_offset in node_label_bits, at most max(1, bits of LABELS' length - 1),
 *   as "Values stored apart" says (the offsets at or past the threshold after the packed ones);
 *   CHILDREN: after the blocks, each block's width, codes and children's entry deltas, block by
 *   block (see "The trie"), then zero bits up to the next byte and MMS_PACKED_TAIL zero bytes;
 *   record_bits = max(1, bits of record_count - 1): ID_ORDER's record numbers;
 *   ALTERNATES: an alternate is its name_offset in name_offset_bits = max(1, bits of NAMES' length
 *   - 1) (its record is in ALTERNATE_BLOCKS and ALTERNATE_DELTAS);
 *   SPELLINGS: a spelling is its form (mms_spelling_form) in MMS_SPELLING_FORM_BITS, then the place
 *   of the name it is made from among its record's names in spelling_name_bits, as "Spellings" says
 *   (its record is in ALTERNATE_BLOCKS and ALTERNATE_DELTAS, after the given alternates');
 *   POPULATION: population_bits as "Values stored apart" says, or 0 with an empty section when every
 *   population is 0;
 *   RECORDS: a record is its id in record_id_bits (as "Values stored apart" says), its latitude as
 *   (lat_e7 + MMS_LATITUDE_BIAS) / unit in bits of 2 * MMS_LATITUDE_BIAS / unit, its longitude as
 *   (lon_e7 + MMS_LONGITUDE_BIAS) / unit in bits of 2 * MMS_LONGITUDE_BIAS / unit, where unit =
 *   10^coordinate_exponent (the coordinates are whole multiples of it, see mms_record), its
 *   name's delta in record_name_bits (see "Records' names"), and its country in country_bits = bits of
 *   (RECORD_COUNTRIES' count + 1): 0 for none, else 1 + its code's number in RECORD_COUNTRIES;
 *   RECORD_NAME_BASES: a block's base in name_offset_bits (see "Records' names");
 *   SPATIAL: a point is its lat_cell, then its lon_cell, each in MMS_SPATIAL_CELL_BITS (see "The
 *   spatial index"), then its record number in record_bits, then its axis bit (MMS_SPATIAL_AXIS_BITS);
 *   NEAR_POINTS: a point is its record number in record_bits, then its population bound in
 *   MMS_NEAR_BOUND_BITS (see "Near a point"), or in 0 bits when population_bits is 0 (every population
 *   is 0, so every bound the code 0);
 *   SUMMARIES: a summary is its node in summary_node_bits = max(1, bits of node_count - 1), its
 *   record_count, name_record_count, primary_first and primary_count each in summary_count_bits =
 *   bits of record_count (they go up to record_count), and its top_first in summary_top_bits = bits of
 *   top_bits;
 *   TOP: pages of entries at their nodes' widths, top_bits bits in all ("TOP pages");
 *   RECORD_REGIONS: region_bits as "Values stored apart" says, of the values "Records' regions" gives
 *   (1 to 32); empty, and region_bits 0, when no record has a region;
 *   entry_bits = MMS_ENTRY_WORD_BITS + name_bits, name_bits = max(1, bits of record_count +
 *   alternate_count + spelling_count - 1) (the largest name number): an entry of ENTRIES packed as
 *   (1 for a WORD, else 0) << name_bits | name number; an entry of TOP is its position or its name
 *   number and its rank, as "TOP pages" says (see "Entries' kinds").
 * Size on the README's index: 21 bits a node's label (22 at version 26) and on average 4.4 bits its entry delta (8 bytes a
 * child block more) instead of 43 bits a node at version 9 (7.1 + 1.7 MB -> 3.7 + 3.1 MB), and its child block's
 * share about 9 bits instead of 14 at version 13 (CHILDREN 3.1 -> 2.3 MB), 21 bits an entry instead
 * of 32 and 20 a first page's (1.6 MB less over ENTRIES and TOP at version 11, 0.38 MB at version 22; at version 26 a
 * position of 6 to 8 bits at most nodes instead, "TOP pages"), 18 bits a record in ID_ORDER instead of 32, 23 bits an
 * alternate's name offset and about 6 its record instead of 64 (41 at version 11), 16 bits a population and 4 bytes for each of the biggest cities' instead of 32 (25 at version 14), 99 bits a record instead of 160 (135 at version 10, 119 at version 20, 111 at version 22: its name's offset, 23 bits, now a delta of 11), 43
 * bits a spatial point instead of 96 (60 at version 16: cells on a fixed grid), 114 bits a summary instead of 192, 4 bits a first
 * page's rank instead of 8 (5 at version 21), 7 bits a record's region instead of 16 (12 at version 27), 8 bits its country instead of 16
 * (12 at version 20), 10 bits a spelling instead of 26 (version 28: its name's offset, 23 bits, now its place, 7), 25 bits a near
 * point instead of 26 (version 28: its population bound, a byte, now 7 bits), about 16 bits a near list's
 * entry instead of 24 (version 29: its name number, 20 bits, now its position among its node's entries).
 *
 * ---------------------------------------------------------------------------------------------------
 * What a reader checks.
 *   At open, in O(1), reading the header alone: file at least sizeof(mms_header); magic; byte_order
 *   (a file written on a big-endian machine reads as MMS_BYTE_ORDER_SWAPPED); version equals
 *   MMS_FORMAT_VERSION; header_size; section_count; entry_bits, record_bits,
 *   name_offset_bits and the summary widths the widths "Packed arrays" gives them; region_bits 0
 *   exactly when RECORD_REGIONS is empty, else 1 to 32; node_label_bits from 1 to the bits of LABELS' length - 1; population_bits at most 32 and 0 exactly when POPULATION is empty, record_id_bits
 *   and record_name_bits from 1 to 32 (verify checks that each is the smallest section's) and coordinate_exponent at most
 *   MMS_MAX_COORDINATE_EXPONENT (verify checks that it is the greatest the coordinates allow); file_size
 *   equals the real size; the sections lie back to back in kind order (the first at sizeof(mms_header), each next one
 *   at the first multiple of 8 after the one before, the file ending where RECORD_NAME_BASES ends), and each
 *   array has the length its count implies (packed arrays as "Packed arrays" says; CHILDREN: its
 *   (node_count + 31) / 32 + 1 blocks, then ceil(child_bits / 8) + MMS_PACKED_TAIL bytes of bits
 *   (reserved_zero zero); ENTRIES: entry_count values and then 4 x P bytes,
 *   P = primary_alternate_count at most record_count; RECORDS: record_count values and then 4 x E bytes,
 *   E = record_id_apart_count at most 2^record_id_bits; POPULATION: empty with population_apart_count
 *   0, or record_count values and then 4 x E bytes, E = population_apart_count at most
 *   2^population_bits; SPATIAL: record_count
 *   points; COUNTRY_RUNS and ENTRY_BLOCKS: country_run_count and entry_block_count; SYMBOLS: a
 *   multiple of sizeof(mms_symbol); NAME_TABLES: a multiple of sizeof(mms_name_table), at most
 *   MMS_MAX_NAME_TABLES of them; COUNTRY_PAGES: a multiple of sizeof(mms_country_page); RECORD_COUNTRIES:
 *   a multiple of sizeof(mms_record_country), at most MMS_MAX_RECORD_COUNTRIES of them; ALTERNATE_BLOCKS:
 *   alternate_block_count blocks; ALTERNATE_DELTAS: at least MMS_PACKED_TAIL bytes; NEAR_POINTS:
 *   record_count points; NEAR_LISTS: a multiple of sizeof(mms_near_list); SPATIAL_BOUNDS:
 *   spatial_bound_count(record_count) bounds; RECORD_NAME_BASES: ceil(record_count /
 *   MMS_RECORD_NAME_BLOCK) values and then 4 x E bytes, E = record_name_apart_count at most
 *   2^record_name_bits; NODES: node_count values and then 4 x E bytes, E = node_label_apart_count at
 *   most 2^node_label_bits; RECORD_REGIONS: empty, or record_count values and then 4 x E bytes, E =
 *   record_region_apart_count at most 2^region_bits, and E 0 when it is empty; SPELLINGS:
 *   spelling_count values and then 4 x E bytes, E = spelling_apart_count at most
 *   2^spelling_name_bits, spelling_name_bits 1 to 32); reserved zero; node_count >= 1;
 *   record_count + alternate_count <= MMS_MAX_NAME_NUMBER + 1; region_count < MMS_NO_REGION; flags
 *   has no bit but MMS_FLAG_QUALIFIED.
 *   At every access: each index or offset read from the file is checked against its section before it
 *   is used (a child block's counts inside CHILDREN's bits, children after their parent and inside
 *   NODES, their entry deltas inside CHILDREN at a width
 *   of at most 32, labels up to their 0xFF or 0xFE (a tail's record read from the node's first entry),
 *   names up to their 0xFF, every
 *   code of a name a symbol of its run's table (inside SYMBOLS, at most MMS_MAX_SYMBOLS) or an escaped
 *   byte, its end inside its run, and its decoded length at most MMS_MAX_STRING_LENGTH, entry
 *   ranges nested in the parent's, name numbers, the PRIMARY alternates' list read inside ENTRIES,
 *   records, summaries, their top pages inside TOP's bits (a position below its node's entry count) and
 *   the ranks stored with them (a class and a kind), region numbers and the regions' and countries' name
 *   spans, SPATIAL's and NEAR_POINTS' record numbers and SPATIAL's axis bits, a near list's range inside TOP; a point's cells are only its own (a reader clamps
 *   a cell into its node's box), so damage to them gives wrong answers, never a read out of bounds, and
 *   verify finds it; a country run's
 *   blocks inside ENTRY_BLOCKS, each load of a step's code inside ENTRY_DELTAS and the code's zeros at
 *   most MMS_ENTRY_STEP_MAX_ZEROS, every position read below entry_count, a country page's first page inside TOP with its count at most
 *   its node's entries, and an alternate block's deltas inside ALTERNATE_DELTAS, before its tail, at a
 *   width of at most 32, each record read below record_count),
 *   so a corrupt file raises an error and never reads out of bounds.
 *   In a full verify (explicit, O(file size)): the checksum, then every invariant above: the trie
 *   (child blocks adding up, their counts zero past the last node, in bytes exactly in the blocks
 *   with a count above 2^MMS_CHILD_COUNT_BITS, their bits back to back, their deltas at the least widths, children sorted, numbered after their parent, labels non-empty, ranges
 *   tiling), every entry's key
 *   spelled by the path to its node and made from its name as "Names and keys" says, entries sorted,
 *   the alternates listed PRIMARY after ENTRIES strictly increasing, each a given alternate, its
 *   record's first, of a record without a display name (and every record with one PRIMARY entry, so
 *   that the list holds every alternate that is names[0]),
 *   summaries exactly where they belong with the right counts, pages and page ranks, the pages tiling
 *   TOP, each stored once ("TOP pages"), records in order
 *   (each one's packed coordinates at most 180 and 360 degrees in their unit, that unit the greatest,
 *   its country number at most RECORD_COUNTRIES' count), the id
 *   order a sorted permutation, alternates sorted by record (their blocks and deltas as "Alternates'
 *   records" says: each width the least, each least_record the least, every bit past them zero), every name decoding to UTF-8, every
 *   symbol and the name tables well formed, every region some record's and regions
 *   and countries sorted, unique and well formed (each folded name the fold of its name), the record
 *   countries sorted, unique, each two digits or ASCII letters and some record's, each with its first_region,
 *   every record's region value at most region_count (the greatest stored apart, at the least width),
 *   MMS_FLAG_QUALIFIED set exactly as the records' regions and countries say, the ids and populations as
 *   "Values stored apart" says (each of the numbers after the packed values at least T and taken by one record, in
 *   record order; the width the smallest section's), and so the records' name deltas and the nodes' label offsets, each block's base
 *   the least of its records' name offsets ("Records' names"), and SPATIAL a k-d tree
 *   of every record exactly once (every record inside the box its ancestors' splits at their
 *   coordinates give it, and every point's cells its record's in its node's box as a reader cuts it,
 *   every inner node numbered below 2^D: its bounds the rows and columns of its records' least and greatest coordinates in
 *   its box, every other entry of SPATIAL_BOUNDS zero); NEAR_POINTS
 *   one over (record number, latitude, longitude) of every record exactly once, each inside its box and
 *   between the record-number splits above it, each bound its record's, each node's top's the greatest
 *   of the node's; the near
 *   lists sorted, exactly where they belong, holding what the node's matches give; the country runs sorted by code, their blocks tiling ENTRY_BLOCKS and
 *   their steps the stream as "Country entries" says (each block's codes starting where the block
 *   before's end, every bit past them zero), each run's positions
 *   strictly ascending, each position's entry's record of the run's code, and as many positions in all
 *   as entries whose record has a country (so each such entry is listed exactly once); the country
 *   pages sorted, exactly where they belong, with the counts, pages and page ranks a search computes.
 *
 * The checksum is XXH64 over every byte but the checksum field itself, chained:
 *   checksum = XXH64(file[offsetof(checksum) + 8 ..< file_size], seed: XXH64(file[0 ..< offsetof(checksum)], seed: 0))
 *
 * Version rule: any change to the layout or to the meaning of a field (the folding table and the
 * ranking rules included) bumps MMS_FORMAT_VERSION; a reader opens exactly its own version and names
 * both on a mismatch. Version 1 (one key per record, no names or ranking) and version 2 (no regions,
 * countries or typos), version 3 (no other names of places, spellings or spatial index) and version 4
 * (no country entries) and version 5 (nodes, entries, first pages and the id order as arrays of
 * uint32_t fields, LABELS after NODES) and version 6 (records, alternates, spellings, populations and
 * spatial points as arrays of fixed-size fields) and version 7 (names stored as they are, regions' and
 * countries' texts in NAMES) and version 8 (no country pages) and version 9 (each node's entry_first
 * in NODES) and version 10 (records with their names' lengths, coordinates at 1e-7 degree always and
 * country codes in 16 bits) and version 11 (each alternate's record beside its name offset) and
 * version 12 (country entries' gaps at a width per block) and version 13 (child counts as a byte a
 * node in the child blocks) and version 14 (every population at the greatest's width) and version 15
 * (the spellings' texts in NAMES) and version 16 (spatial cells on a fixed grid) and version 17 (no
 * name-and-place tree or near lists) and version 18 (each NEAR_POINTS pivot with its subtree's greatest
 * population bound, no node's top, each point with its cells, lists from 1,500 records) and version 19
 * (no bounds of SPATIAL's inner nodes) and version 20 (ids at the greatest's width; NEAR_POINTS' population
 * bounds in 8 bits without populations; a record's country as its code's two base-62 digits) and
 * version 21 (each entry's kind stored whole in ENTRIES and TOP, a first page's rank as a class
 * and a kind side by side in 5 bits, in a section of its own) and version 22 (a record's name offset
 * stored whole in RECORDS) and version 23 (the counts of the values after ENTRIES', RECORDS',
 * POPULATION's and RECORD_NAME_BASES' packed arrays as each section's last 4 bytes, read at open) and
 * version 24 (every label stored whole, its country tail too) and version 25 (every first page's
 * entries as name numbers, at one width) and version 26 (every label offset at the width of LABELS'
 * length) and version 27 (a record's region as its number in REGIONS, 2-byte RECORD_COUNTRIES, a page
 * stored again for each node it is the first page of) and version 28 (a spelling's name as its offset in
 * NAMES; a population bound in 8 bits, the least c with (population + 1) <= 2^(c / 8)) and version 29
 * (a near list's entries as name numbers) and version 30 (a child block of 14 nodes, their counts in 4
 * bits, wide blocks' in bytes, after the blocks) are not read by version 31.
 *
 * Limits of version 16: at most 65,534 regions; at most 2^32 - 2 nodes and entries; record_count + alternate_count at most
 * 2^30 (name numbers are 30 bits); label and name pools under 4 GiB; the alternates' deltas and the country entries' steps each under 2^32 bits; a name or key of at most 65,535
 * bytes; ids from 0 to 2^32 - 1; populations up to 2^32 - 1; coordinates within +-90 and +-180
 * degrees, to 1e-7 degree at the finest (RECORDS keeps the greatest unit that holds them all); country
 * codes of two digits or ASCII letters. The builder refuses input past a limit with an error.
 */
#ifndef MMSEARCH_FORMAT_H
#define MMSEARCH_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bytes "MMSEARCH" read as a little-endian uint64_t. */
#define MMS_MAGIC 0x4843524145534D4DULL
/* The version this header describes. */
#define MMS_FORMAT_VERSION 31u
/* Written as a native uint32_t; a little-endian file reads back as MMS_BYTE_ORDER_MARK. */
#define MMS_BYTE_ORDER_MARK 0x01020304u
/* What a reader sees when the writer had the other byte order. */
#define MMS_BYTE_ORDER_SWAPPED 0x04030201u
/* Every section starts at a multiple of this. */
#define MMS_SECTION_ALIGNMENT 8u
/* Scale of mms_record coordinates: units per degree. */
#define MMS_COORDINATE_SCALE 10000000
/* Longest name or key, in bytes (name lengths are uint16_t). */
#define MMS_MAX_STRING_LENGTH 65535u
/* Ends every label in LABELS (but those ended by MMS_LABEL_TAIL_END), every name in NAMES and every text
   in PLACE_NAMES; never a byte of UTF-8, so never one of a key, and never a code of an encoded name but
   its end. */
#define MMS_STRING_END 0xFFu
/* LABELS: ends a label that goes on with its node's keys' country tail, not stored ("The trie"). */
#define MMS_LABEL_TAIL_END 0xFEu
/* The country tail's length: ", " and a two-character code. */
#define MMS_COUNTRY_TAIL_LENGTH 4u
/* NAMES: the code that stands for the byte after it ("Encoded names"); never a byte of UTF-8. */
#define MMS_NAME_ESCAPE 0xFEu
/* A symbol table: at most this many symbols (codes 0 to 253), each of 1 to MMS_SYMBOL_MAX_LENGTH bytes. */
#define MMS_MAX_SYMBOLS 254u
#define MMS_SYMBOL_MAX_LENGTH 8u
/* NAME_TABLES: at most this many tables (runs of NAMES). */
#define MMS_MAX_NAME_TABLES 16u
/* Nodes per mms_child_block. */
#define MMS_CHILD_BLOCK_NODES 32u
/* A child block's head ("The trie"): its deltas' width (MMS_CHILD_WIDTH_MASK) and
 * MMS_CHILD_BYTE_COUNTS when its counts are bytes. */
#define MMS_CHILD_WIDTH_MASK 0x3Fu
#define MMS_CHILD_BYTE_COUNTS 0x40u
/* A child block's count of a node with children, less one, in its counts (no byte counts). */
#define MMS_CHILD_COUNT_BITS 4u
/* The counts a child block holds itself; its further ones are among CHILDREN's bits. */
#define MMS_CHILD_BLOCK_COUNTS 16u
/* A node with more entries than this has a summary; one with this many or fewer has none. */
#define MMS_SUMMARY_THRESHOLD 32u
/* Length of a summary's first ranked page: min(record_count, MMS_TOP_COUNT) entries of TOP. */
#define MMS_TOP_COUNT 20u
/* COUNTRY_PAGES: a summarized node has a country's page when more records of that country than this
   match there (a search restricted to a country reads that many of its records' entries at most
   otherwise). Above MMS_TOP_COUNT, so that a country's page is always a whole one. */
#define MMS_COUNTRY_PAGE_THRESHOLD 128u
/* TOP pages: a page of a node with at most this many entries holds their positions among them, one
   of more entries their name numbers. A page's reads of ENTRIES then stay inside 672 bytes of them
   (at 1,024, 0.11 MB smaller on the README's index, the list + cities500's keystrokes took 1.04x
   format 25's time on average; at 256, 1.00x). */
#define MMS_TOP_POSITION_LIMIT 256u
/*
 * A TOP rank (MMS_TOP_RANK_BITS, after a TOP entry's position or name number): what ranks the entry's record at
 * its node, so that a page merged with "Name, Qualifier" matches needs no name of it folded: the class c
 * of the record's best key match at the node's depth (0-6, see "Ranking") and the least kind k among
 * its matches there (0 PRIMARY, 1 ALTERNATE or SPELLING, 2 WORD: Ranking.kind(ofClass:)), which is at
 * most its best match's kind. So 14 pairs, numbered in (k, c) order: k = 0 with c = 0 to 6 are 0-6;
 * k = 1 with c = 1, 3, 4, 5, 6 are 7-11; k = 2 with c = 4 and 6 are 12 and 13 (MMS_TOP_RANK_COUNT and
 * above are no rank). 4 bits instead of 5 for a class and a kind side by side (version 21): 0.11 MB
 * on the README's index (903,543 ranks). Beside the name number in TOP since version 22 (TOP_RANKS
 * before), so that a page's entries and ranks are read from the same bytes, since a page's entries'
 * kinds come from their ranks.
 */
#define MMS_TOP_RANK_BITS 4u
#define MMS_TOP_RANK_COUNT 14u
/* An entry: kind in bits 30-31, name number in bits 0-29. */
#define MMS_ENTRY_KIND_SHIFT 30u
#define MMS_ENTRY_NAME_MASK 0x3FFFFFFFu
#define MMS_MAX_NAME_NUMBER MMS_ENTRY_NAME_MASK
/* ENTRIES: a packed entry's bit above its name number, 1 for a WORD ("Entries' kinds"). */
#define MMS_ENTRY_WORD_BITS 1u
/* The widest field of a packed array's value, in bits; and the zero bytes after its values. */
#define MMS_PACKED_MAX_WIDTH 32u
#define MMS_PACKED_TAIL 8u
/* Region numbers are below it (region_count < MMS_NO_REGION), so that a region's number and a
   first_region (at most region_count) fit a uint16_t; no region has this number. */
#define MMS_NO_REGION 0xFFFFu
/* mms_header.flags: "Name, Qualifier" queries match (some record has a region or a named country). */
#define MMS_FLAG_QUALIFIED 0x1u
/* SPATIAL: a node with at most this many records is a leaf. */
#define MMS_SPATIAL_LEAF_SIZE 8u
/* RECORDS and SPATIAL: what is added to a coordinate to make it unsigned (+-90 and +-180 degrees at
   MMS_COORDINATE_SCALE: 0 to 1.8e9 and 3.6e9). RECORDS: the greatest coordinate_exponent (a unit of
   10^7 x 1e-7 degree is a whole degree). */
#define MMS_LATITUDE_BIAS 900000000
#define MMS_LONGITUDE_BIAS 1800000000u
#define MMS_MAX_COORDINATE_EXPONENT 7u
/* RECORD_COUNTRIES: at most this many codes, every pair of two digits or ASCII letters (62 x 62). */
#define MMS_MAX_RECORD_COUNTRIES 3844u
/* RECORD_NAME_BASES: records a base ("Records' names"). On the README's index, deltas and bases take
   0.33 MB with 16 records a base, 0.31 MB with 32, 0.30 MB with 64 (11 bits a delta, 948 stored apart,
   9.4 KB of bases), 0.32 MB with 128 (12 bits). */
#define MMS_RECORD_NAME_BLOCK 64u
/* SPATIAL: a point's axis bit, packed after its record number. */
#define MMS_SPATIAL_AXIS_BITS 1u
/* SPATIAL: a point's cell on each axis, its row (or column) of the 2^this its node's box is cut in. */
#define MMS_SPATIAL_CELL_BITS 12u
/* SPATIAL_BOUNDS: a node's bounds on each edge, a row (or column) of the 2^this its box is cut in. */
#define MMS_SPATIAL_BOUND_BITS 8u
/* SPATIAL_BOUNDS: the inner nodes of at most this many depths from the root have bounds. */
#define MMS_SPATIAL_BOUND_DEPTH 13u
/* A spatial point's record_axis as a reader holds it: the record number, and (pivots only) the axis
   bit: set for longitude. */
#define MMS_SPATIAL_RECORD_MASK 0x1FFFFFFFu
#define MMS_SPATIAL_AXIS_LONGITUDE 0x80000000u
/* NEAR_POINTS: a node with at most this many records is a leaf; a point's population bound's bits (none without populations). */
#define MMS_NEAR_LEAF_SIZE 8u
#define MMS_NEAR_BOUND_BITS 7u
/* NEAR_POINTS: a population bound's codes per doubling: code c bounds (population + 1) by 2^(c / 4). */
#define MMS_NEAR_BOUND_CODES_PER_DOUBLING 4u
/* NEAR_LISTS: a summarized node has a list when it has more records than this and at most
   MMS_NEAR_LIST_MAX of them are matched other than by a primary name's prefix. */
#define MMS_NEAR_LIST_THRESHOLD 800u
#define MMS_NEAR_LIST_MAX 2048u
/* COUNTRY_RUNS: positions in each ENTRY_BLOCKS block (the last of a run holds the rest). */
#define MMS_ENTRY_BLOCK_SIZE 128u
/* ENTRY_DELTAS: the most zeros a step's code starts with (a step below 2^33: positions below 2^32
   are less apart); and the zero bytes after the stream. */
#define MMS_ENTRY_STEP_MAX_ZEROS 32u
#define MMS_ENTRY_DELTAS_TAIL 8u
/* ALTERNATE_BLOCKS: alternates in each block (the last one's slots past the alternates hold zeros). */
#define MMS_ALTERNATE_BLOCK_SIZE 32u
/* mms_qualifier_name.owner_kind values. */
#define MMS_QUALIFIER_OF_COUNTRY 0u
#define MMS_QUALIFIER_OF_REGION 1u

/* The kinds of key (see "Names and keys"); their order is the ranking's tie-break. */
typedef enum mms_kind {
    MMS_KIND_PRIMARY = 0,   /* the record's primary name: weight 100 */
    MMS_KIND_ALTERNATE = 1, /* another name: weight 20 when the query covers half of it, else 1 */
    MMS_KIND_WORD = 2,      /* a word start inside a name: weight 1 */
    MMS_KIND_SPELLING = 3   /* a generated spelling of a name ("St Paul" for "Saint Paul"): ranked as an
                               ALTERNATE (its kind for the tie-break is 1), matched with "words" only */
} mms_kind;

/*
 * How a spelling is made from the name it comes from (SPELLINGS; see "Spellings"): with P the name
 * without its periods and S = P with every '-' a space; short() writes each word whose fold is saint,
 * sainte, sankt, santa, mount, fort, port or point short (St, Ste, St, Sta, Mt, Ft, Pt, Pt), long() each
 * word whose fold is st, ste, sta, mt or ft out (Saint, Sainte, Santa, Mount, Fort); a word is a maximal
 * run of bytes that are no separator (' ' '-' '/' '(' ')' '.' ',' '\'' '"').
 */
typedef enum mms_spelling_form {
    MMS_SPELLING_PLAIN = 0,        /* P */
    MMS_SPELLING_SPACED = 1,       /* S */
    MMS_SPELLING_SHORT_PLAIN = 2,  /* short(P) */
    MMS_SPELLING_SHORT_SPACED = 3, /* short(S) */
    MMS_SPELLING_LONG_PLAIN = 4,   /* long(P) */
    MMS_SPELLING_LONG_SPACED = 5,  /* long(S) */
    MMS_SPELLING_FORM_COUNT = 6    /* a form at or past this is invalid */
} mms_spelling_form;
/* SPELLINGS: bits of a spelling's form, below its name offset. */
#define MMS_SPELLING_FORM_BITS 3u

/* Index into mms_header.sections. */
typedef enum mms_section_kind {
    MMS_SECTION_LABELS = 0,
    MMS_SECTION_NODES = 1,
    MMS_SECTION_CHILDREN = 2,
    MMS_SECTION_ENTRIES = 3,
    MMS_SECTION_SUMMARIES = 4,
    MMS_SECTION_TOP = 5,
    MMS_SECTION_RECORDS = 6,
    MMS_SECTION_POPULATION = 7,
    MMS_SECTION_ALTERNATES = 8,
    MMS_SECTION_NAMES = 9,
    MMS_SECTION_ID_ORDER = 10,
    MMS_SECTION_RECORD_REGIONS = 11,
    MMS_SECTION_REGIONS = 12,
    MMS_SECTION_COUNTRIES = 13,
    MMS_SECTION_QUALIFIER_NAMES = 14,
    MMS_SECTION_SPELLINGS = 15,
    MMS_SECTION_SOURCE = 16,
    MMS_SECTION_SPATIAL = 17,
    MMS_SECTION_COUNTRY_RUNS = 18,
    MMS_SECTION_ENTRY_BLOCKS = 19,
    MMS_SECTION_ENTRY_DELTAS = 20,
    MMS_SECTION_SYMBOLS = 21,
    MMS_SECTION_NAME_TABLES = 22,
    MMS_SECTION_PLACE_NAMES = 23,
    MMS_SECTION_COUNTRY_PAGES = 24,
    MMS_SECTION_ALTERNATE_BLOCKS = 25,
    MMS_SECTION_ALTERNATE_DELTAS = 26,
    MMS_SECTION_NEAR_POINTS = 27,
    MMS_SECTION_NEAR_LISTS = 28,
    MMS_SECTION_SPATIAL_BOUNDS = 29,
    MMS_SECTION_RECORD_COUNTRIES = 30,
    MMS_SECTION_RECORD_NAME_BASES = 31,
    MMS_SECTION_COUNT = 32
} mms_section_kind;

/*
 * Where one section lies. Invariants: offset % MMS_SECTION_ALIGNMENT == 0; offset is the first
 * multiple of MMS_SECTION_ALIGNMENT at or after the end of the section before (sizeof(mms_header)
 * for LABELS, the first); offset + length <= mms_header.file_size.
 */
typedef struct mms_section {
    uint64_t offset; /* byte offset from the start of the file */
    uint64_t length; /* bytes in the section, padding excluded */
} mms_section;

/*
 * The header, at offset 0. Magic and version first, at the same offsets in every version, so any
 * reader of any version can tell what a file is before it trusts anything else. Invariants: see
 * "What a reader checks" above.
 */
typedef struct mms_header {
    uint64_t magic;           /* MMS_MAGIC */
    uint32_t version;         /* MMS_FORMAT_VERSION */
    uint32_t byte_order;      /* MMS_BYTE_ORDER_MARK */
    uint64_t file_size;       /* the whole file, in bytes */
    uint64_t checksum;        /* chained XXH64, see above; checked by a full verify, not at open */
    uint32_t header_size;     /* sizeof(mms_header) */
    uint32_t section_count;   /* MMS_SECTION_COUNT */
    uint32_t record_count;    /* records, and entries in ID_ORDER */
    uint32_t node_count;      /* trie nodes, >= 1 (the root) */
    uint32_t entry_count;     /* entries (search keys) */
    uint32_t alternate_count; /* alternate names */
    uint32_t summary_count;   /* summarized nodes */
    uint32_t top_bits;        /* bits of TOP's pages ("TOP pages") */
    uint32_t region_count;    /* regions, below MMS_NO_REGION */
    uint32_t country_count;   /* countries */
    uint32_t flags;           /* MMS_FLAG_QUALIFIED or zero */
    uint32_t qualifier_name_count; /* entries in QUALIFIER_NAMES */
    uint32_t spelling_count;  /* generated spellings (SPELLINGS) */
    uint32_t country_run_count; /* countries with entries (COUNTRY_RUNS) */
    uint32_t entry_block_count; /* blocks of their positions (ENTRY_BLOCKS) */
    uint32_t child_bits;      /* bits of the child blocks' widths, codes and deltas (CHILDREN, after its blocks) */
    uint8_t entry_bits;       /* bits of an ENTRIES value (TOP: less the word bit, then a rank): "Packed arrays" */
    uint8_t record_bits;      /* bits of a packed record number (ID_ORDER) */
    uint8_t node_label_bits;  /* bits of a node's label_offset in NODES */
    uint8_t name_offset_bits; /* bits of a name_offset (RECORDS, ALTERNATES, SPELLINGS) */
    uint8_t population_bits;  /* bits of a population (POPULATION); 0 when POPULATION is empty */
    uint8_t record_id_bits;   /* bits of a record's id (RECORDS) */
    uint8_t coordinate_exponent; /* RECORDS' coordinates in units of 10^coordinate_exponent x 1e-7 degree */
    uint8_t summary_node_bits;  /* bits of a summary's node (SUMMARIES) */
    uint8_t summary_count_bits; /* bits of a summary's record counts and primary range */
    uint8_t summary_top_bits;   /* bits of a summary's top_first */
    uint8_t region_bits;      /* bits of a record's region value (RECORD_REGIONS; "Records' regions") */
    uint8_t record_name_bits; /* bits of a record's name delta (RECORDS; see "Records' names") */
    uint32_t reserved_zero;   /* zero (format 30's count of wide child blocks) */
    /* How many uint32_t values follow a section's packed array (open checks sections from the header): */
    uint32_t primary_alternate_count; /* P: ENTRIES' alternates listed PRIMARY ("Entries' kinds") */
    uint32_t population_apart_count;  /* E: POPULATION's populations stored apart ("Values stored apart") */
    uint32_t record_id_apart_count;   /* E: RECORDS' ids stored apart */
    uint32_t record_name_apart_count; /* E: the records' name deltas stored apart in RECORD_NAME_BASES */
    uint32_t node_label_apart_count;  /* E: NODES' label offsets stored apart */
    uint32_t record_region_apart_count; /* E: RECORD_REGIONS' values stored apart */
    uint32_t spelling_apart_count; /* E: SPELLINGS' names stored apart ("Spellings") */
    uint8_t spelling_name_bits;    /* bits of a spelling's name place (SPELLINGS), 1 to 32 */
    uint8_t reserved[3];           /* zero */
    mms_section sections[MMS_SECTION_COUNT];
} mms_header;

/*
 * A trie node's stored field, the label of the edge into it (packed in NODES in node_label_bits; see
 * "Packed arrays"); its entries come from its parent's and its delta in CHILDREN ("The trie").
 * Invariants: see "The trie". The root's label is empty (labels[label_offset] == MMS_STRING_END).
 */
typedef struct mms_node {
    uint32_t label_offset; /* the incoming label: LABELS bytes from here to the next MMS_STRING_END, or
                              to the next MMS_LABEL_TAIL_END and then the node's keys' country tail */
} mms_node;

/*
 * Where the children of MMS_CHILD_BLOCK_NODES (32) nodes are (see "The trie"): node 32 * b + i has
 * children exactly when bit i of mask is set, numbered from first plus the counts of nodes 32 * b ..<
 * 32 * b + i. CHILDREN holds (node_count + 31) / 32 blocks and one more after them, whose first is
 * node_count, bits_first child_bits and every other field 0, so that every block's bits end where the
 * next one's start.
 * Invariants: block 0's first is 1 and its bits_first 0; each next block's first is the one before's
 * plus its nodes' counts, and its bits_first the one before's plus its bits (counts and deltas); the
 * counts add up to node_count - 1 (every node but the root is a child once) and are 0 past the last
 * node; a node's children are numbered after it; head holds no bit but the width's and
 * MMS_CHILD_BYTE_COUNTS; counts is zero past the counts it holds (all of it with byte counts);
 * reserved zero. No padding: 24 bytes, 8-aligned (first and bits_first one 8-byte load, mask and head
 * another, counts a third, each 8-aligned so that none crosses a cache line: a 20-byte block with 14
 * counts, 0.16 MB smaller on the README's index, had a load across one in an eighth of its blocks,
 * and the list alone by name took 1.036x format 30's time at p50, where this block takes 1.000x).
 */
typedef struct mms_child_block {
    uint32_t first;       /* the first child of the block's first node (where it would be, if none) */
    uint32_t bits_first;  /* the bit of CHILDREN's bits where its further counts and its deltas start */
    uint32_t mask;        /* bit i set: node 32 * b + i has children */
    uint8_t head;         /* its deltas' width (MMS_CHILD_WIDTH_MASK), and MMS_CHILD_BYTE_COUNTS */
    uint8_t reserved[3];  /* zero */
    uint64_t counts;      /* its first 16 nodes with children's counts less one, 4 bits each, first lowest */
} mms_child_block;

/*
 * What a big node's entries hold, computed at build time (stored packed in SUMMARIES: node in
 * summary_node_bits, the four counts in summary_count_bits, top_first in summary_top_bits; see
 * "Packed arrays"). Invariants: node < node_count, strictly
 * increasing from summary to summary; the node has more than MMS_SUMMARY_THRESHOLD entries;
 * name_record_count <= record_count; the records whose primary key starts with the node's prefix
 * are exactly primary_first ..< primary_first + primary_count (contiguous, since records are in
 * primary-key order; primary_first is where they would be when there are none); its page,
 * min(record_count, MMS_TOP_COUNT) entries from bit top_first, inside top_bits ("TOP pages"). Without alternates (an index of the list alone) the
 * records matched by name are exactly these.
 */
typedef struct mms_summary {
    uint32_t node;              /* the node summarized */
    uint32_t record_count;      /* distinct records among all its entries: the count of "words" */
    uint32_t name_record_count; /* distinct records among its PRIMARY and ALTERNATE entries: "name" */
    uint32_t primary_first;     /* the first record whose primary key starts with the prefix */
    uint32_t primary_count;     /* how many records' primary keys do */
    uint32_t top_first;         /* its ranked first page ("words"): from bit top_first of TOP, best
                                   first, each record's best entry ("TOP pages") */
} mms_summary;

/*
 * One city's fields (stored packed in RECORDS, each at the width "Packed arrays" gives it, the
 * coordinates biased to be unsigned and in units of 10^coordinate_exponent, the name offset as a delta
 * from its block's base ("Records' names"), the country code as a number). Invariants: name_offset <
 * NAMES length, the name it starts inside one run of NAMES; lat_e7
 * within +-90 * scale and lon_e7 within +-180 * scale, both multiples of 10^coordinate_exponent, and
 * not both of every record multiples of ten times it (below MMS_MAX_COORDINATE_EXPONENT: the unit is
 * the greatest that holds them); country two digits or ASCII letters, or two zero bytes for "no
 * country". A reader holds a record unpacked as this struct; `reserved` is never stored.
 */
typedef struct mms_record {
    uint32_t id;           /* the list's "_id" (a GeoNames id) */
    int32_t lat_e7;        /* latitude in 1e-7 degree: the source's decimal text, exactly */
    int32_t lon_e7;        /* longitude in 1e-7 degree */
    uint32_t name_offset;  /* start of the encoded display name in NAMES (identical names share bytes),
                              up to the next MMS_STRING_END: empty when that is at name_offset */
    uint8_t country[2];    /* ISO 3166-1 alpha-2 code as given, e.g. 'U','A'; zero when empty */
    uint8_t reserved[2];   /* zero: padding to 4 bytes, not stored */
} mms_record;

/*
 * Another name of a city's fields (name_offset stored packed in ALTERNATES in name_offset_bits, see
 * "Packed arrays"; a spelling's is the name it is made from, see "Spellings"; record in ALTERNATE_BLOCKS and ALTERNATE_DELTAS, see
 * "Alternates' records"). Invariants: record < record_count; the
 * name, NAMES from name_offset up to the next MMS_STRING_END decoded ("Encoded names"), is non-empty
 * UTF-8 of at most MMS_MAX_STRING_LENGTH bytes.
 */
typedef struct mms_alternate {
    uint32_t record;      /* the record the name belongs to */
    uint32_t name_offset; /* start of the encoded name in NAMES */
} mms_alternate;

/*
 * Where the records of MMS_ALTERNATE_BLOCK_SIZE consecutive alternates are (ALTERNATE_BLOCKS; see
 * "Alternates' records"): alternate i of the block has record least_record + the i-th delta of w bits
 * from bit delta_bit of ALTERNATE_DELTAS, w = (the next block's delta_bit - delta_bit) / 32.
 * Invariants: delta_bit 0 for the first block, increasing by a multiple of 32 (at most 32 x 32) from
 * block to block; least_record the least of its alternates' records (0 for the last block, which has
 * none); w the least that holds its greatest delta. No padding: 8 bytes.
 */
typedef struct mms_alternate_block {
    uint32_t least_record; /* the least record of its alternates */
    uint32_t delta_bit;    /* where its deltas start in ALTERNATE_DELTAS, in bits */
} mms_alternate_block;

/*
 * A symbol of a table NAMES is encoded with (SYMBOLS; see "Encoded names"): code c of table t stands
 * for the bytes[0 ..< length] of SYMBOLS[t's first symbol + c]. Invariants: 1 <= length <=
 * MMS_SYMBOL_MAX_LENGTH; bytes past length zero. No padding: 9 bytes, 1-aligned.
 */
typedef struct mms_symbol {
    uint8_t bytes[8]; /* the symbol's bytes, zero past its length */
    uint8_t length;   /* how many of them */
} mms_symbol;

/*
 * One run of NAMES and the symbol table it is encoded with (NAME_TABLES; see "Encoded names"): the
 * run ends at names_end, its table at symbols_end; both start where the table before's end (0 for the
 * first). Invariants: names_end strictly increasing from table to table, the last NAMES' length;
 * symbols_end increasing by at most MMS_MAX_SYMBOLS, the last symbol_count. No padding: 8 bytes.
 */
typedef struct mms_name_table {
    uint32_t names_end;   /* where its run of NAMES ends (bytes) */
    uint32_t symbols_end; /* where its symbols end in SYMBOLS (symbols) */
} mms_name_table;

/*
 * A region (a GeoNames admin1 division: a US state, a Swiss canton, a French region). Invariants: its
 * name, code and folded name are spans of PLACE_NAMES each followed by MMS_STRING_END; the name and code
 * are non-empty UTF-8, the folded name is fold(name); country is two ASCII bytes A-Z or 0-9; regions
 * are sorted by (country, code bytes), no two equal, and each is the region of some record.
 */
typedef struct mms_region {
    uint32_t name_offset;   /* the name in PLACE_NAMES, as the admin1 file gives it ("Île-de-France") */
    uint32_t folded_offset; /* fold(name) in PLACE_NAMES: what qualifiers compare with */
    uint32_t code_offset;   /* the admin1 code in PLACE_NAMES ("IL", "11") */
    uint16_t name_length;   /* bytes of the name */
    uint16_t folded_length; /* bytes of fold(name) */
    uint16_t code_length;   /* bytes of the code */
    uint8_t country[2];     /* the "CC" of the file's "CC.CODE" */
} mms_region;

/*
 * A country (a row of GeoNames' countryInfo.txt whose code some record has). Invariants: name and
 * folded name are spans of PLACE_NAMES each followed by MMS_STRING_END, the name UTF-8 (possibly empty) and
 * the folded name fold(name); code is two ASCII bytes A-Z or 0-9; iso3 is three ASCII bytes A-Z or
 * three zero bytes; reserved is zero; countries are sorted by code, no two equal.
 */
typedef struct mms_country {
    uint32_t name_offset;   /* the country's name in PLACE_NAMES ("United States") */
    uint32_t folded_offset; /* fold(name) in PLACE_NAMES */
    uint16_t name_length;   /* bytes of the name */
    uint16_t folded_length; /* bytes of fold(name) */
    uint8_t code[2];        /* ISO 3166-1 alpha-2, as records hold it */
    uint8_t iso3[3];        /* ISO 3166-1 alpha-3, or zero bytes */
    uint8_t reserved[3];    /* zero */
} mms_country;

/*
 * One point of the spatial index (SPATIAL; see "The spatial index"): the cell of a record's coordinates
 * in its node's box beside its number, in the tree's order; stored packed (the cells in
 * MMS_SPATIAL_CELL_BITS each, the record number in record_bits, the axis in one bit). Invariants: the
 * cells are those of the record's mms_record.lat_e7 and lon_e7 in the box of the node that holds the
 * point ("Boxes and cells"), both below 2^MMS_SPATIAL_CELL_BITS; record_axis & MMS_SPATIAL_RECORD_MASK < record_count, each
 * record in exactly one point; bits 29 and 30 of record_axis zero; bit 31 (MMS_SPATIAL_AXIS_LONGITUDE)
 * zero in leaves, and in a pivot the axis it splits (set: longitude).
 */
typedef struct mms_spatial_point {
    uint32_t lat_cell;    /* the record's row in its node's box: (lat_e7 - south) / step_lat */
    uint32_t lon_cell;    /* the record's column in its node's box: (lon_e7 - west) / step_lon */
    uint32_t record_axis; /* record number (bits 0-28), axis bit (bit 31, pivots only) */
} mms_spatial_point;

/*
 * Where the records under one inner node of SPATIAL's tree lie (SPATIAL_BOUNDS; see "Bounds" in "The
 * spatial index"): rows and columns of the node's box cut into 2^MMS_SPATIAL_BOUND_BITS. Invariants:
 * for an inner node, south and north the rows of its records' least and greatest latitude, west and
 * east the columns of their least and greatest longitude (so south <= north, west <= east); all zero
 * for a leaf or a number no node has. No padding: 4 bytes, 1-aligned.
 */
typedef struct mms_spatial_bounds {
    uint8_t south; /* the row of the least latitude: (lat_e7 - box south) / step_lat */
    uint8_t north; /* the row of the greatest latitude */
    uint8_t west;  /* the column of the least longitude: (lon_e7 - box west) / step_lon */
    uint8_t east;  /* the column of the greatest longitude */
} mms_spatial_bounds;

/*
 * A country code some record has (RECORD_COUNTRIES; see "Records' countries"). Invariants: code two
 * digits or ASCII letters, as the records give it; codes strictly sorted by their two bytes, each some
 * record's; first_region the number of the first region in REGIONS whose country is the code with its
 * ASCII letters upper-cased, or where it would be (region_count when every region's country is less;
 * 0 without regions). No padding: 4 bytes, 2-aligned.
 */
typedef struct mms_record_country {
    uint8_t code[2];       /* the code, as given ("US", "us", "00") */
    uint16_t first_region; /* where its country's regions start in REGIONS ("Records' regions") */
} mms_record_country;

/*
 * One country's entries (COUNTRY_RUNS; see "Country entries"). Invariants: runs strictly sorted by
 * code (as two bytes); code not 0 0 and without a lower-case ASCII letter; position_count >= 1;
 * block_count = ceil(position_count / MMS_ENTRY_BLOCK_SIZE); block_first = the run before's
 * block_first + block_count (0 for the first), the last run's blocks ending at entry_block_count.
 * No padding: 16 bytes, 4-aligned.
 */
typedef struct mms_country_run {
    uint8_t code[2];         /* the records' country code, ASCII letters upper-cased */
    uint8_t reserved[2];     /* zero */
    uint32_t block_first;    /* its first block in ENTRY_BLOCKS */
    uint32_t block_count;    /* its blocks */
    uint32_t position_count; /* its positions (entries) */
} mms_country_run;

/*
 * The other matches of a big node, in TOP (NEAR_LISTS; see "Near a point"). Invariants: node has a
 * summary with more than MMS_NEAR_LIST_THRESHOLD records; lists strictly sorted by node; reserved
 * zero; count at most MMS_NEAR_LIST_MAX, the node's other matches that may reach a page; count entries
 * from bit top_first of TOP, inside top_bits ("TOP pages"; the builder puts the lists after the
 * country pages', in list order).
 * No padding: 16 bytes, 4-aligned.
 */
typedef struct mms_near_list {
    uint32_t node;      /* the summarized node */
    uint32_t top_first; /* the bit of TOP its first record's entry (and rank) starts at */
    uint32_t count;     /* its records */
    uint32_t reserved;  /* zero */
} mms_near_list;

/*
 * A country's count and first ranked page at a big node (COUNTRY_PAGES; see "Country pages").
 * Invariants: node has a summary; pages strictly sorted by (node, code as two bytes); code not 0 0 and
 * without a lower-case ASCII letter; reserved zero; record_count > MMS_COUNTRY_PAGE_THRESHOLD, the
 * number of distinct records of that code among the node's key matches (so at most its entries); its
 * MMS_TOP_COUNT entries from bit top_first of TOP, inside top_bits ("TOP pages"). No padding: 16 bytes, 4-aligned.
 */
typedef struct mms_country_page {
    uint32_t node;          /* the summarized node */
    uint8_t code[2];        /* the records' country code, ASCII letters upper-cased (as COUNTRY_RUNS) */
    uint8_t reserved[2];    /* zero */
    uint32_t record_count;  /* distinct records of that country among the node's entries */
    uint32_t top_first;     /* their ranked first page: MMS_TOP_COUNT entries from bit top_first of TOP */
} mms_country_page;

/*
 * One block of a country's entry positions (ENTRY_BLOCKS; see "Country entries"). Invariants: first <
 * entry_count, and above the last position of the block before in its run; delta_bit = where the
 * block before's codes end (0 for block 0); every position it gives below entry_count. No padding:
 * 8 bytes, 4-aligned.
 */
typedef struct mms_entry_block {
    uint32_t first;       /* the block's first position in ENTRIES */
    uint32_t delta_bit;   /* where its steps' codes start in ENTRY_DELTAS, in bits */
} mms_entry_block;

/*
 * Another name of a country or a region, from GeoNames' alternate names file: a qualifier of every
 * record in that country (or region) besides the names COUNTRIES and REGIONS give ("uk", "usa",
 * "deutschland"). Invariants: owner_kind is MMS_QUALIFIER_OF_COUNTRY (owner < country_count) or
 * MMS_QUALIFIER_OF_REGION (owner < region_count); the folded name is a span of PLACE_NAMES followed by
 * MMS_STRING_END, non-empty, fold(name) of a name of the file; entries are sorted by (owner_kind,
 * owner, folded bytes), no two equal; reserved is zero.
 */
typedef struct mms_qualifier_name {
    uint32_t owner;          /* the country's number in COUNTRIES, or the region's in REGIONS */
    uint32_t folded_offset;  /* fold(name) in PLACE_NAMES */
    uint16_t folded_length;  /* bytes of fold(name) */
    uint8_t owner_kind;      /* MMS_QUALIFIER_OF_COUNTRY or MMS_QUALIFIER_OF_REGION */
    uint8_t reserved;        /* zero */
} mms_qualifier_name;

/* What an index was built from. */
typedef enum mms_source_kind {
    MMS_SOURCE_CITY_LIST = 1,    /* OpenWeatherMap's JSON city list */
    MMS_SOURCE_GEONAMES_DUMP = 2 /* a GeoNames dump (cities500.txt and the like) */
} mms_source_kind;

/*
 * The SOURCE section: what the index was built from. The source file's name (as given to the
 * builder, UTF-8) follows the struct directly, then the joined dump's name, the admin1 file's and the
 * country file's and the alternate names file's: SOURCE length == sizeof(mms_source) + name_length +
 * joined_name_length + admin1_name_length + countries_name_length + alternates_name_length. A file
 * not used has size, checksum and name length 0.
 */
typedef struct mms_source {
    uint64_t source_size;           /* bytes of the input file as read (after decompression, if any) */
    uint64_t source_checksum;       /* XXH64 (seed 0) of those bytes */
    int64_t built_at;               /* seconds since 1970-01-01 UTC when the index was written */
    uint64_t joined_size;           /* bytes of the GeoNames dump joined by id, as read; 0 when none */
    uint64_t joined_checksum;       /* XXH64 (seed 0) of those bytes; 0 when none */
    uint64_t admin1_size;           /* bytes of the admin1 file (region names), as read; 0 when none */
    uint64_t admin1_checksum;       /* XXH64 (seed 0) of those bytes; 0 when none */
    uint64_t countries_size;        /* bytes of the country file, as read; 0 when none */
    uint64_t countries_checksum;    /* XXH64 (seed 0) of those bytes; 0 when none */
    uint32_t name_length;           /* bytes of the source name that follow */
    uint32_t joined_name_length;    /* bytes of the joined dump's name after it; 0 when none */
    uint32_t admin1_name_length;    /* bytes of the admin1 file's name after that; 0 when none */
    uint32_t countries_name_length; /* bytes of the country file's name after that; 0 when none */
    uint32_t source_kind;           /* mms_source_kind of the input */
    uint32_t alternates_name_length; /* bytes of the alternate names file's name, last; 0 when none */
    uint64_t alternates_size;       /* bytes of the alternate names file, as read; 0 when none */
    uint64_t alternates_checksum;   /* XXH64 (seed 0) of those bytes; 0 when none */
    uint32_t alternates_record_names;    /* the file's names of records' ids (rows used); 0 when none */
    uint32_t alternates_qualifier_names; /* the file's names of countries and regions (rows used); 0 when none */
} mms_source;

/* The layout, asserted: a compiler that pads differently refuses to build. */
_Static_assert(sizeof(mms_section) == 16, "mms_section is 16 bytes");
_Static_assert(offsetof(mms_section, offset) == 0, "mms_section.offset");
_Static_assert(offsetof(mms_section, length) == 8, "mms_section.length");

_Static_assert(offsetof(mms_header, magic) == 0, "mms_header.magic");
_Static_assert(offsetof(mms_header, version) == 8, "mms_header.version");
_Static_assert(offsetof(mms_header, byte_order) == 12, "mms_header.byte_order");
_Static_assert(offsetof(mms_header, file_size) == 16, "mms_header.file_size");
_Static_assert(offsetof(mms_header, checksum) == 24, "mms_header.checksum");
_Static_assert(offsetof(mms_header, header_size) == 32, "mms_header.header_size");
_Static_assert(offsetof(mms_header, section_count) == 36, "mms_header.section_count");
_Static_assert(offsetof(mms_header, record_count) == 40, "mms_header.record_count");
_Static_assert(offsetof(mms_header, node_count) == 44, "mms_header.node_count");
_Static_assert(offsetof(mms_header, entry_count) == 48, "mms_header.entry_count");
_Static_assert(offsetof(mms_header, alternate_count) == 52, "mms_header.alternate_count");
_Static_assert(offsetof(mms_header, summary_count) == 56, "mms_header.summary_count");
_Static_assert(offsetof(mms_header, top_bits) == 60, "mms_header.top_bits");
_Static_assert(offsetof(mms_header, region_count) == 64, "mms_header.region_count");
_Static_assert(offsetof(mms_header, country_count) == 68, "mms_header.country_count");
_Static_assert(offsetof(mms_header, flags) == 72, "mms_header.flags");
_Static_assert(offsetof(mms_header, qualifier_name_count) == 76, "mms_header.qualifier_name_count");
_Static_assert(offsetof(mms_header, spelling_count) == 80, "mms_header.spelling_count");
_Static_assert(offsetof(mms_header, country_run_count) == 84, "mms_header.country_run_count");
_Static_assert(offsetof(mms_header, entry_block_count) == 88, "mms_header.entry_block_count");
_Static_assert(offsetof(mms_header, child_bits) == 92, "mms_header.child_bits");
_Static_assert(offsetof(mms_header, entry_bits) == 96, "mms_header.entry_bits");
_Static_assert(offsetof(mms_header, record_bits) == 97, "mms_header.record_bits");
_Static_assert(offsetof(mms_header, node_label_bits) == 98, "mms_header.node_label_bits");
_Static_assert(MMS_ENTRY_WORD_BITS + 30u <= MMS_PACKED_MAX_WIDTH, "an ENTRIES value (its word bit and a name number of up to 30 bits) fits a packed field");
_Static_assert(offsetof(mms_header, name_offset_bits) == 99, "mms_header.name_offset_bits");
_Static_assert(offsetof(mms_header, population_bits) == 100, "mms_header.population_bits");
_Static_assert(offsetof(mms_header, record_id_bits) == 101, "mms_header.record_id_bits");
_Static_assert(offsetof(mms_header, coordinate_exponent) == 102, "mms_header.coordinate_exponent");
_Static_assert(offsetof(mms_header, summary_node_bits) == 103, "mms_header.summary_node_bits");
_Static_assert(offsetof(mms_header, summary_count_bits) == 104, "mms_header.summary_count_bits");
_Static_assert(offsetof(mms_header, summary_top_bits) == 105, "mms_header.summary_top_bits");
_Static_assert(offsetof(mms_header, region_bits) == 106, "mms_header.region_bits");
_Static_assert(offsetof(mms_header, record_name_bits) == 107, "mms_header.record_name_bits");
_Static_assert(offsetof(mms_header, reserved_zero) == 108, "mms_header.reserved_zero");
_Static_assert(offsetof(mms_header, primary_alternate_count) == 112, "mms_header.primary_alternate_count");
_Static_assert(offsetof(mms_header, population_apart_count) == 116, "mms_header.population_apart_count");
_Static_assert(offsetof(mms_header, record_id_apart_count) == 120, "mms_header.record_id_apart_count");
_Static_assert(offsetof(mms_header, record_name_apart_count) == 124, "mms_header.record_name_apart_count");
_Static_assert(offsetof(mms_header, node_label_apart_count) == 128, "mms_header.node_label_apart_count");
_Static_assert(offsetof(mms_header, record_region_apart_count) == 132, "mms_header.record_region_apart_count");
_Static_assert(offsetof(mms_header, spelling_apart_count) == 136, "mms_header.spelling_apart_count");
_Static_assert(offsetof(mms_header, spelling_name_bits) == 140, "mms_header.spelling_name_bits");
_Static_assert(offsetof(mms_header, reserved) == 141, "mms_header.reserved: the section table starts 8-aligned after it");
_Static_assert(offsetof(mms_header, sections) == 144, "mms_header.sections");
_Static_assert(sizeof(mms_header) == 144 + MMS_SECTION_COUNT * sizeof(mms_section), "mms_header is 656 bytes");

_Static_assert(sizeof(mms_node) == 4, "mms_node is 4 bytes");
_Static_assert(offsetof(mms_node, label_offset) == 0, "mms_node.label_offset");

_Static_assert(sizeof(mms_child_block) == 24, "mms_child_block is 24 bytes");
_Static_assert(offsetof(mms_child_block, first) == 0, "mms_child_block.first");
_Static_assert(offsetof(mms_child_block, bits_first) == 4, "mms_child_block.bits_first: the top half of one 8-byte load");
_Static_assert(offsetof(mms_child_block, mask) == 8, "mms_child_block.mask");
_Static_assert(offsetof(mms_child_block, head) == 12, "mms_child_block.head: the top half of the mask's 8-byte load");
_Static_assert(offsetof(mms_child_block, reserved) == 13, "mms_child_block.reserved");
_Static_assert(offsetof(mms_child_block, counts) == 16, "mms_child_block.counts: 8-aligned");
_Static_assert(sizeof(((mms_child_block *)0)->counts) * 8 == MMS_CHILD_BLOCK_COUNTS * MMS_CHILD_COUNT_BITS, "a block holds MMS_CHILD_BLOCK_COUNTS counts");
_Static_assert(14 * MMS_CHILD_COUNT_BITS <= 64 - 7, "a reader adds 14 counts from one 8-byte load at any bit");
_Static_assert(MMS_CHILD_WIDTH_MASK >= 32 && (MMS_CHILD_WIDTH_MASK & MMS_CHILD_BYTE_COUNTS) == 0 && MMS_CHILD_WIDTH_MASK + MMS_CHILD_BYTE_COUNTS <= 0xFF, "a head holds a width up to 32 and the flag");
_Static_assert(sizeof(((mms_child_block *)0)->mask) * 8 == MMS_CHILD_BLOCK_NODES, "a block's mask has a bit a node");

_Static_assert(sizeof(mms_summary) == 24, "mms_summary is 24 bytes");
_Static_assert(offsetof(mms_summary, node) == 0, "mms_summary.node");
_Static_assert(offsetof(mms_summary, record_count) == 4, "mms_summary.record_count");
_Static_assert(offsetof(mms_summary, name_record_count) == 8, "mms_summary.name_record_count");
_Static_assert(offsetof(mms_summary, primary_first) == 12, "mms_summary.primary_first");
_Static_assert(offsetof(mms_summary, primary_count) == 16, "mms_summary.primary_count");
_Static_assert(offsetof(mms_summary, top_first) == 20, "mms_summary.top_first");

_Static_assert(sizeof(mms_record) == 20, "mms_record is 20 bytes");
_Static_assert(offsetof(mms_record, id) == 0, "mms_record.id");
_Static_assert(offsetof(mms_record, lat_e7) == 4, "mms_record.lat_e7");
_Static_assert(offsetof(mms_record, lon_e7) == 8, "mms_record.lon_e7");
_Static_assert(offsetof(mms_record, name_offset) == 12, "mms_record.name_offset");
_Static_assert(offsetof(mms_record, country) == 16, "mms_record.country");
_Static_assert(offsetof(mms_record, reserved) == 18, "mms_record.reserved");

_Static_assert(sizeof(mms_alternate) == 8, "mms_alternate is 8 bytes");
_Static_assert(offsetof(mms_alternate, record) == 0, "mms_alternate.record");
_Static_assert(offsetof(mms_alternate, name_offset) == 4, "mms_alternate.name_offset");

_Static_assert(sizeof(mms_symbol) == 9, "mms_symbol is 9 bytes");
_Static_assert(offsetof(mms_symbol, bytes) == 0, "mms_symbol.bytes");
_Static_assert(offsetof(mms_symbol, length) == 8, "mms_symbol.length");
_Static_assert(sizeof(((mms_symbol *)0)->bytes) == MMS_SYMBOL_MAX_LENGTH, "a symbol holds MMS_SYMBOL_MAX_LENGTH bytes");
_Static_assert(MMS_MAX_SYMBOLS == MMS_NAME_ESCAPE, "every code below the escape can be a symbol");
_Static_assert(sizeof(mms_name_table) == 8, "mms_name_table is 8 bytes");
_Static_assert(offsetof(mms_name_table, names_end) == 0, "mms_name_table.names_end");
_Static_assert(offsetof(mms_name_table, symbols_end) == 4, "mms_name_table.symbols_end");

_Static_assert(sizeof(mms_region) == 20, "mms_region is 20 bytes");
_Static_assert(offsetof(mms_region, name_offset) == 0, "mms_region.name_offset");
_Static_assert(offsetof(mms_region, folded_offset) == 4, "mms_region.folded_offset");
_Static_assert(offsetof(mms_region, code_offset) == 8, "mms_region.code_offset");
_Static_assert(offsetof(mms_region, name_length) == 12, "mms_region.name_length");
_Static_assert(offsetof(mms_region, folded_length) == 14, "mms_region.folded_length");
_Static_assert(offsetof(mms_region, code_length) == 16, "mms_region.code_length");
_Static_assert(offsetof(mms_region, country) == 18, "mms_region.country");

_Static_assert(sizeof(mms_country) == 20, "mms_country is 20 bytes");
_Static_assert(offsetof(mms_country, name_offset) == 0, "mms_country.name_offset");
_Static_assert(offsetof(mms_country, folded_offset) == 4, "mms_country.folded_offset");
_Static_assert(offsetof(mms_country, name_length) == 8, "mms_country.name_length");
_Static_assert(offsetof(mms_country, folded_length) == 10, "mms_country.folded_length");
_Static_assert(offsetof(mms_country, code) == 12, "mms_country.code");
_Static_assert(offsetof(mms_country, iso3) == 14, "mms_country.iso3");
_Static_assert(offsetof(mms_country, reserved) == 17, "mms_country.reserved");

_Static_assert(sizeof(mms_source) == 120, "mms_source is 120 bytes");
_Static_assert(offsetof(mms_source, source_size) == 0, "mms_source.source_size");
_Static_assert(offsetof(mms_source, source_checksum) == 8, "mms_source.source_checksum");
_Static_assert(offsetof(mms_source, built_at) == 16, "mms_source.built_at");
_Static_assert(offsetof(mms_source, joined_size) == 24, "mms_source.joined_size");
_Static_assert(offsetof(mms_source, joined_checksum) == 32, "mms_source.joined_checksum");
_Static_assert(offsetof(mms_source, admin1_size) == 40, "mms_source.admin1_size");
_Static_assert(offsetof(mms_source, admin1_checksum) == 48, "mms_source.admin1_checksum");
_Static_assert(offsetof(mms_source, countries_size) == 56, "mms_source.countries_size");
_Static_assert(offsetof(mms_source, countries_checksum) == 64, "mms_source.countries_checksum");
_Static_assert(offsetof(mms_source, name_length) == 72, "mms_source.name_length");
_Static_assert(offsetof(mms_source, joined_name_length) == 76, "mms_source.joined_name_length");
_Static_assert(offsetof(mms_source, admin1_name_length) == 80, "mms_source.admin1_name_length");
_Static_assert(offsetof(mms_source, countries_name_length) == 84, "mms_source.countries_name_length");
_Static_assert(offsetof(mms_source, source_kind) == 88, "mms_source.source_kind");
_Static_assert(offsetof(mms_source, alternates_name_length) == 92, "mms_source.alternates_name_length");
_Static_assert(offsetof(mms_source, alternates_size) == 96, "mms_source.alternates_size");
_Static_assert(offsetof(mms_source, alternates_checksum) == 104, "mms_source.alternates_checksum");
_Static_assert(offsetof(mms_source, alternates_record_names) == 112, "mms_source.alternates_record_names");
_Static_assert(offsetof(mms_source, alternates_qualifier_names) == 116, "mms_source.alternates_qualifier_names");

_Static_assert(MMS_SPATIAL_RECORD_MASK + 1 == 1u << 29, "SPATIAL record numbers are 29 bits, as records number below 2^29");
_Static_assert((MMS_SPATIAL_AXIS_LONGITUDE & MMS_SPATIAL_RECORD_MASK) == 0, "the axis bit is no record bit");
_Static_assert(2ull * MMS_LONGITUDE_BIAS < (1ull << MMS_PACKED_MAX_WIDTH), "a biased coordinate fits a packed field at unit 1");
_Static_assert(MMS_LATITUDE_BIAS == 90 * MMS_COORDINATE_SCALE && MMS_LONGITUDE_BIAS == 180u * MMS_COORDINATE_SCALE, "the biases are +-90 and +-180 degrees");
_Static_assert(MMS_SPATIAL_CELL_BITS >= 1 && MMS_SPATIAL_CELL_BITS <= 16, "a cell number fits 16 bits, and a cell's offset in a box (below 2^16 steps of at most 2^32 >> MMS_SPATIAL_CELL_BITS + 1 units) 64 bits");
_Static_assert(sizeof(mms_spatial_point) == 12, "mms_spatial_point is 12 bytes");
_Static_assert(offsetof(mms_spatial_point, lat_cell) == 0, "mms_spatial_point.lat_cell");
_Static_assert(offsetof(mms_spatial_point, lon_cell) == 4, "mms_spatial_point.lon_cell");
_Static_assert(offsetof(mms_spatial_point, record_axis) == 8, "mms_spatial_point.record_axis");
_Static_assert(MMS_SPATIAL_BOUND_BITS == 8, "a node's bound on an edge is one byte of mms_spatial_bounds");
_Static_assert(MMS_SPATIAL_BOUND_DEPTH >= 1 && MMS_SPATIAL_BOUND_DEPTH <= 28, "node numbers below 2^MMS_SPATIAL_BOUND_DEPTH fit an int32_t, as a reader holds them");
_Static_assert(sizeof(mms_spatial_bounds) == 4, "mms_spatial_bounds is 4 bytes");
_Static_assert(sizeof(mms_record_country) == 4, "mms_record_country is 4 bytes");
_Static_assert(offsetof(mms_record_country, code) == 0, "mms_record_country.code");
_Static_assert(offsetof(mms_record_country, first_region) == 2, "mms_record_country.first_region");
_Static_assert(offsetof(mms_spatial_bounds, south) == 0, "mms_spatial_bounds.south");
_Static_assert(offsetof(mms_spatial_bounds, north) == 1, "mms_spatial_bounds.north");
_Static_assert(offsetof(mms_spatial_bounds, west) == 2, "mms_spatial_bounds.west");
_Static_assert(offsetof(mms_spatial_bounds, east) == 3, "mms_spatial_bounds.east");
_Static_assert(sizeof(mms_country_run) == 16, "mms_country_run is 16 bytes");
_Static_assert(offsetof(mms_country_run, code) == 0, "mms_country_run.code");
_Static_assert(offsetof(mms_country_run, reserved) == 2, "mms_country_run.reserved");
_Static_assert(offsetof(mms_country_run, block_first) == 4, "mms_country_run.block_first");
_Static_assert(offsetof(mms_country_run, block_count) == 8, "mms_country_run.block_count");
_Static_assert(offsetof(mms_country_run, position_count) == 12, "mms_country_run.position_count");
_Static_assert(sizeof(mms_country_page) == 16, "mms_country_page is 16 bytes");
_Static_assert(offsetof(mms_country_page, node) == 0, "mms_country_page.node");
_Static_assert(offsetof(mms_country_page, code) == 4, "mms_country_page.code");
_Static_assert(offsetof(mms_country_page, reserved) == 6, "mms_country_page.reserved");
_Static_assert(offsetof(mms_country_page, record_count) == 8, "mms_country_page.record_count");
_Static_assert(offsetof(mms_country_page, top_first) == 12, "mms_country_page.top_first");
_Static_assert(MMS_COUNTRY_PAGE_THRESHOLD >= MMS_TOP_COUNT, "a country page is a whole page");
_Static_assert(sizeof(mms_near_list) == 16, "mms_near_list is 16 bytes");
_Static_assert(offsetof(mms_near_list, node) == 0, "mms_near_list.node");
_Static_assert(offsetof(mms_near_list, top_first) == 4, "mms_near_list.top_first");
_Static_assert(offsetof(mms_near_list, count) == 8, "mms_near_list.count");
_Static_assert(offsetof(mms_near_list, reserved) == 12, "mms_near_list.reserved");
_Static_assert(MMS_NEAR_BOUND_BITS == 7, "a population bound is 7 bits, 127 bounding every number (2^(126 / 4) > 2^31)");
_Static_assert(MMS_NEAR_LIST_THRESHOLD >= MMS_SUMMARY_THRESHOLD, "a near list is a summarized node's");
_Static_assert(sizeof(mms_entry_block) == 8, "mms_entry_block is 8 bytes");
_Static_assert(offsetof(mms_entry_block, first) == 0, "mms_entry_block.first");
_Static_assert(offsetof(mms_entry_block, delta_bit) == 4, "mms_entry_block.delta_bit");
_Static_assert(MMS_ENTRY_STEP_MAX_ZEROS + 1 + 7 <= 64 && MMS_ENTRY_DELTAS_TAIL == 8, "a code's zeros and its one lie inside the 8 bytes loaded at its byte");
_Static_assert(sizeof(mms_alternate_block) == 8, "mms_alternate_block is 8 bytes");
_Static_assert(offsetof(mms_alternate_block, least_record) == 0, "mms_alternate_block.least_record");
_Static_assert(offsetof(mms_alternate_block, delta_bit) == 4, "mms_alternate_block.delta_bit");
_Static_assert(MMS_ALTERNATE_BLOCK_SIZE == 32 && MMS_PACKED_MAX_WIDTH + 7 <= 64, "a block's width is its span / 32; a delta lies inside the 8 bytes loaded at its byte");
_Static_assert(sizeof(mms_qualifier_name) == 12, "mms_qualifier_name is 12 bytes");
_Static_assert(offsetof(mms_qualifier_name, owner) == 0, "mms_qualifier_name.owner");
_Static_assert(offsetof(mms_qualifier_name, folded_offset) == 4, "mms_qualifier_name.folded_offset");
_Static_assert(offsetof(mms_qualifier_name, folded_length) == 8, "mms_qualifier_name.folded_length");
_Static_assert(offsetof(mms_qualifier_name, owner_kind) == 10, "mms_qualifier_name.owner_kind");
_Static_assert(offsetof(mms_qualifier_name, reserved) == 11, "mms_qualifier_name.reserved");

/* Byte offsets and sizes as values, so Swift (which cannot evaluate offsetof) uses the C compiler's. */
enum {
    MMS_HEADER_SIZE = sizeof(mms_header),
    MMS_HEADER_CHECKSUM_OFFSET = offsetof(mms_header, checksum),
    MMS_NODE_SIZE = sizeof(mms_node),
    MMS_CHILD_BLOCK_SIZE = sizeof(mms_child_block),
    MMS_SUMMARY_SIZE = sizeof(mms_summary),
    MMS_RECORD_SIZE = sizeof(mms_record),
    MMS_ALTERNATE_SIZE = sizeof(mms_alternate),
    MMS_SYMBOL_SIZE = sizeof(mms_symbol),
    MMS_NAME_TABLE_SIZE = sizeof(mms_name_table),
    MMS_REGION_SIZE = sizeof(mms_region),
    MMS_COUNTRY_SIZE = sizeof(mms_country),
    MMS_QUALIFIER_NAME_SIZE = sizeof(mms_qualifier_name),
    MMS_SPATIAL_POINT_SIZE = sizeof(mms_spatial_point),
    MMS_SPATIAL_BOUNDS_SIZE = sizeof(mms_spatial_bounds),
    MMS_RECORD_COUNTRY_SIZE = sizeof(mms_record_country),
    MMS_COUNTRY_RUN_SIZE = sizeof(mms_country_run),
    MMS_COUNTRY_PAGE_SIZE = sizeof(mms_country_page),
    MMS_NEAR_LIST_SIZE = sizeof(mms_near_list),
    MMS_ENTRY_BLOCK_SIZE_BYTES = sizeof(mms_entry_block),
    MMS_ALTERNATE_BLOCK_SIZE_BYTES = sizeof(mms_alternate_block),
    MMS_SOURCE_SIZE = sizeof(mms_source),
};

/*
 * A hint that the byte at address will be read soon: its cache line is fetched while the caller goes on
 * (a reader overlaps the scattered reads of a page of results). Changes no result; a reader passes only
 * addresses inside the file it checked.
 */
static inline void mms_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/*
 * XXH64 of length bytes at data with the given seed (the reference algorithm, xxhash.com).
 * Reads exactly [data, data + length); data may be NULL when length is 0.
 */
uint64_t mms_xxh64(const void *data, size_t length, uint64_t seed);

/*
 * The same checksum over bytes that arrive in pieces (an input file too big to hold: GeoNames' whole
 * alternate names file): reset, update with each piece in order, digest. Not a format struct: it is
 * never written to a file.
 */
typedef struct mms_xxh64_state {
    uint64_t lanes[4];       /* the four accumulators of the 32-byte stripes */
    uint64_t total_length;   /* bytes given so far */
    uint64_t seed;
    uint8_t buffer[32];      /* bytes of an unfinished stripe */
    uint32_t buffered;       /* how many of buffer hold them, < 32 */
    uint32_t reserved;
} mms_xxh64_state;

void mms_xxh64_reset(mms_xxh64_state *state, uint64_t seed);
void mms_xxh64_update(mms_xxh64_state *state, const void *data, size_t length);
uint64_t mms_xxh64_digest(const mms_xxh64_state *state);

#ifdef __cplusplus
}
#endif

#endif /* MMSEARCH_FORMAT_H */
