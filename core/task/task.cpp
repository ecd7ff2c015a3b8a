#include "task/task.h"

#include "data/jsonl.h"

namespace rwb::task {

std::vector<Record> Task::read(const std::string &path, const ReadOptions &options) const
{
    const std::string text = data::readTextFile(path);
    std::vector<Record> out;
    data::forEachRecordLine(text, options.skipped, [&](size_t lineNo, std::string_view line) {
        if (options.limit > 0 && out.size() >= options.limit)
            return;
        out.push_back(readLine(line, path, lineNo, options.requireCompletion));
    });
    if (out.empty())
        throw data::InputException({path, 0, "no example"});
    return out;
}

} // namespace rwb::task
