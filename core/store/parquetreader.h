#pragma once

// Parquet tables (TRL's completions_{step:05d}.parquet) read for `rwb import` through a
// Python that has pyarrow: Debian packages no parquet library (Apache Arrow is not in
// Debian), and every machine TRL ran on has pyarrow (datasets needs it). The interpreter is
// started on the first read and kept for the next ones: a run's hundreds of files cost one
// start and one `import pyarrow`. It prints each table as JSON lines; nothing is written.
// Without Qt or libtorch.

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rwb::util {
class Subprocess;
}

namespace rwb::store {

// How big a table the reader reads, and how long it waits.
struct ParquetLimits {
    // The most rows of one table: 5 million, far more than TRL writes at a step (one
    // generation batch, some thousands of rows), and far fewer than fill a machine's
    // memory as JSON values.
    static constexpr uint64_t kMaxRows = 5'000'000;
    // The most bytes of one table: its columns uncompressed (the file's metadata, checked
    // before a row is read), and the JSON text its rows come as.
    static constexpr uint64_t kMaxBytes = uint64_t(4) << 30;

    uint64_t maxRows = kMaxRows;
    uint64_t maxBytes = kMaxBytes;
    // How long the interpreter may take to start and import pyarrow.
    std::chrono::seconds startTimeout{120};
    // How long it may stay silent while it reads one table (a large file on a slow disk).
    std::chrono::seconds readTimeout{600};
};

class ParquetReader {
public:
    // One table: its column names (pandas' "__index_level_N__" columns left out) and its
    // rows, each an array of one JSON value per column: numbers, text, booleans, null
    // (None, and NaN or ±infinity: pandas writes a None reward so), lists and objects
    // for nested columns (a list of messages), bytes as UTF-8 text, dates as ISO text.
    struct Table {
        std::vector<std::string> columns;
        std::vector<nlohmann::ordered_json> rows;
    };

    // `python`: the interpreter, "python3" (looked up on PATH) or a path; "" → $RWB_PYTHON,
    // else "python3". Starts nothing yet.
    explicit ParquetReader(std::string python = {}, ParquetLimits limits = {});
    ~ParquetReader(); // ends the interpreter
    ParquetReader(const ParquetReader &) = delete;
    ParquetReader &operator=(const ParquetReader &) = delete;

    // The interpreter it runs.
    const std::string &python() const { return m_python; }

    // Reads the whole table at `path`. Throws data::InputException naming `path` with a
    // message a user can act on when the interpreter cannot start, has no pyarrow, or has
    // a pyarrow older than 14.0.1 without pyarrow_hotfix (CVE-2023-47248: such a pyarrow
    // runs code a crafted file carries; the message says what to install, or --python /
    // RWB_PYTHON; every later read throws the same), when pyarrow cannot read the file (its
    // reason), when the table has more rows or bytes than the limits (nothing of it is
    // kept), when a row does not fit in memory or is longer than Subprocess::kMaxLine, or
    // when the interpreter ends, writes something else or stays silent for the limits'
    // readTimeout while reading (it is ended and reaped, and started again for the next
    // read). A table too big for memory is this exception too, never std::bad_alloc. One
    // thread at a time.
    Table read(const std::string &path);

private:
    void start(const std::string &path);
    Table readTable(const std::string &path);
    // Ends the interpreter and throws `what` for `path`, with how it ended and its stderr.
    [[noreturn]] void failed(const std::string &path, const std::string &what);
    // Ends the interpreter (what is left of a table is in its pipe) and throws `what`.
    [[noreturn]] void abandon(const std::string &path, const std::string &what);

    std::string m_python;
    ParquetLimits m_limits;
    std::unique_ptr<util::Subprocess> m_process;
    std::optional<std::string> m_unavailable; // why this interpreter cannot read parquet
};

} // namespace rwb::store
