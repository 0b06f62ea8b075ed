// Startup of BurntSushi's fst, timed as mmsearch-bench times mmsearch's: in this (fresh) process, from
// before the map is memory-mapped to holding the first page (20 keys) of the range that starts with
// QUERY. Then the map is dropped and opened again the same way (the second open). Prints key=value pairs.
// usage: fst_open MAP QUERY
//        fst_open --build KEYS_TSV MAP   (the map shared/peers/fst_bench builds: each distinct key of the
//                                          first column, in byte order, with its number of records)
use fst::{IntoStreamer, Map, MapBuilder, Streamer};
use std::io::{BufRead, BufReader, BufWriter};
use std::time::Instant;

/// VmRSS, RssFile and RssAnon of this process, in KiB.
fn resident() -> (i64, i64, i64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| -> i64 {
        status.lines().find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0)
    };
    (field("VmRSS:"), field("RssFile:"), field("RssAnon:"))
}

/// Maps the fst and reads the first page of `query`; returns the nanoseconds taken and the page's size.
fn open_first_page(path: &str, query: &str, page: &mut Vec<Vec<u8>>) -> (u128, usize) {
    let start = Instant::now();
    let map = unsafe { Map::from_path(path).unwrap() };
    let mut upper = query.as_bytes().to_vec();
    upper.push(0xff);
    let mut stream = map.range().ge(query.as_bytes()).lt(&upper).into_stream();
    page.clear();
    while page.len() < 20 {
        match stream.next() {
            Some((key, _)) => page.push(key.to_vec()),
            None => break,
        }
    }
    let elapsed = start.elapsed().as_nanos();
    (elapsed, page.len()) // the map is unmapped when it goes out of scope, untimed
}

fn build(keys_tsv: &str, out: &str) {
    let keys: Vec<String> = BufReader::new(std::fs::File::open(keys_tsv).unwrap())
        .lines()
        .map(|l| l.unwrap().split('\t').next().unwrap().to_string())
        .collect();
    let mut sorted: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
    sorted.sort();
    let mut builder = MapBuilder::new(BufWriter::new(std::fs::File::create(out).unwrap())).unwrap();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j < sorted.len() && sorted[j] == sorted[i] { j += 1; }
        builder.insert(sorted[i], (j - i) as u64).unwrap();
        i = j;
    }
    builder.finish().unwrap();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 4 && args[1] == "--build" {
        build(&args[2], &args[3]);
        return;
    }
    if args.len() != 3 {
        eprintln!("usage: {} MAP QUERY", args[0]);
        std::process::exit(2);
    }
    let mut page: Vec<Vec<u8>> = Vec::with_capacity(20);
    let (rss0, file0, anon0) = resident();
    let (first, results) = open_first_page(&args[1], &args[2], &mut page);
    let (rss1, file1, anon1) = resident();
    let (second, _) = open_first_page(&args[1], &args[2], &mut page);
    println!("engine=fst open_first_ns={} second_open_ns={} results={} rss_before_kib={} rss_after_kib={} file_growth_kib={} anonymous_growth_kib={}",
             first, second, results, rss0, rss1, file1 - file0, anon1 - anon0);
}
