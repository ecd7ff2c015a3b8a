#pragma once

// Parquet tables (TRL's completions_{step:05d}.parquet) read for `rwb import` through a
// Python that has pyarrow: Debian packages no parquet library (Apache Arrow is not in
// Debian), and every machine TRL ran on has pyarrow (datasets needs it). The interpreter is
// started on the first read and kept for the next ones: a run's hundreds of files cost one
// start and one `import pyarrow`. It prints each table as JSON lines; nothing is written.
// Without Qt or libtorch.

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rwb::util {
class Subprocess;
}

namespace rwb::store {

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
    explicit ParquetReader(std::string python = {});
    ~ParquetReader(); // ends the interpreter
    ParquetReader(const ParquetReader &) = delete;
    ParquetReader &operator=(const ParquetReader &) = delete;

    // The interpreter it runs.
    const std::string &python() const { return m_python; }

    // Reads the whole table at `path`. Throws data::InputException naming `path` with a
    // message a user can act on when the interpreter cannot start or has no pyarrow (what
    // to install, or --python / RWB_PYTHON; every later read throws the same), when pyarrow
    // cannot read the file (its reason), or when the interpreter ends or stays silent for
    // 10 minutes while reading (restarted for the next read). One thread at a time.
    Table read(const std::string &path);

private:
    void start(const std::string &path);
    [[noreturn]] void failed(const std::string &path, const std::string &what);

    std::string m_python;
    std::unique_ptr<util::Subprocess> m_process;
    std::optional<std::string> m_unavailable; // why this interpreter cannot read parquet
};

} // namespace rwb::store
