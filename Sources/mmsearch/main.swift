import MMSearch

/// mmsearch: build a city index once, then search it by prefix at once.
/// Exit status: 0 success (zero matches included), 1 bad input or a bad index, 2 bad usage.
enum MMSearchCommand {
static let usage = """
    mmsearch: instant prefix search over a city list, by every name of a city, biggest first,
    from a prebuilt memory-mapped index

    usage:
      mmsearch build INPUT [--geonames DUMP] [--admin1 FILE] [--countries FILE]
                     [--alternate-names FILE] -o OUTPUT
                                             build an index from a city list or GeoNames dump (plain
                                             or gzip), optionally joined with a GeoNames dump, with
                                             region and country names and their other names
      mmsearch query [OPTIONS] PREFIX        search by prefix, biggest first ("-": queries from stdin)
      mmsearch near [OPTIONS] LAT,LON        the cities nearest a point, nearest first
      mmsearch search [--index PATH]         search as you type, full screen; Enter prints the city
      mmsearch get [OPTIONS] ID...           the cities with these ids
      mmsearch info INDEX                    what an index holds, and what it was built from
      mmsearch verify INDEX                  check an index completely (checksum and structure)
      mmsearch serve [OPTIONS]               serve the index over HTTP: a JSON API and a search page

    Run `mmsearch COMMAND --help` for a command's options.
    """

/// The subcommand called `name`. A switch, not a dictionary: see `Arguments` for what the first
/// dictionary in a process costs.
static func command(named name: String) -> Command.Type? {
    switch name {
    case "build": BuildCommand.self
    case "query": QueryCommand.self
    case "near": NearCommand.self
    case "search": SearchCommand.self
    case "get": GetCommand.self
    case "info": InfoCommand.self
    case "verify": VerifyCommand.self
    case "serve": ServeCommand.self
    default: nil
    }
}
}

/// A subcommand: its usage text and what it does with its arguments.
protocol Command: Sendable {
    static var usage: String { get }
    static func run(_ arguments: [String]) throws -> Int32
}

func main() -> Int32 {
    let usage = MMSearchCommand.usage
    SystemCall.ignoreBrokenPipes()
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let name = arguments.first else {
        Output.error(usage)
        return 2
    }
    if name == "--help" || name == "-h" || name == "help" {
        var output = Output(.output)
        output.write(usage + "\n")
        output.flush()
        return 0
    }
    if name == "--version" || name == "-V" {
        var output = Output(.output)
        output.write("mmsearch \(MMSearchVersion.version) (index format \(MMSearchVersion.indexFormat))\n")
        output.flush()
        return 0
    }
    guard let command = MMSearchCommand.command(named: name) else {
        Output.error("mmsearch: unknown command \"\(name)\"\n\n\(usage)")
        return 2
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        var output = Output(.output)
        output.write(command.usage + "\n")
        output.flush()
        return 0
    }
    do {
        return try command.run(rest)
    } catch let error as UsageError {
        Output.error("mmsearch \(name): \(error.message)\n\n\(command.usage)")
        return 2
    } catch {
        Output.error("mmsearch \(name): \(error)")
        return 1
    }
}

SystemCall.exit(main())
