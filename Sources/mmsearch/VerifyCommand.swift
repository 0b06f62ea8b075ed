import MMSearch

enum VerifyCommand: Command {
    static let usage = """
        usage: mmsearch verify INDEX

        Checks INDEX completely: its checksum, then every structural rule of the format (edges in bounds
        and sorted, record ranges nested, records in order, id order sorted). Exit 0 when it is sound;
        exit 1 with the first problem and its byte offset otherwise.
        """

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, valued: [], flagNames: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected one INDEX file") }
        let index = try CityIndex(path: parsed.positionals[0])
        try index.verify()
        var output = Output(.output)
        output.write("\(index.path): ok, \(index.count) records, \(index.fileSize) bytes\n")
        output.flush()
        return 0
    }
}
