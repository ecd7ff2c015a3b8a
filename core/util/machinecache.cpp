#include "util/machinecache.h"

#include "util/boundedjson.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace rwb::util {

namespace fs = std::filesystem;

fs::path machineCachePath(const char *overrideVariable, const std::string &fileName)
{
    if (const char *p = std::getenv(overrideVariable); p && *p)
        return p;
    if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
        return fs::path(x) / "reward-workbench" / fileName;
    if (const char *h = std::getenv("HOME"); h && *h)
        return fs::path(h) / ".cache" / "reward-workbench" / fileName;
    return {};
}

std::optional<std::vector<double>> readMachineCache(const fs::path &path, const std::string &key,
                                                    const std::vector<std::string> &fields)
{
    if (path.empty())
        return std::nullopt;
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const nlohmann::json j = parseJsonOrDiscarded(text);
    if (!j.is_object() || !j.contains("key") || !j["key"].is_string() || j["key"].get<std::string>() != key)
        return std::nullopt;
    std::vector<double> values;
    for (const std::string &f : fields) {
        if (!j.contains(f) || !j[f].is_number())
            return std::nullopt;
        values.push_back(j[f].get<double>());
    }
    return values;
}

void writeMachineCache(const fs::path &path, const std::string &key,
                       const std::vector<std::pair<std::string, double>> &values)
{
    if (path.empty())
        return;
    nlohmann::json j{{"key", key}};
    for (const auto &[field, value] : values)
        j[field] = value;
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    const fs::path tmp = path.string() + "." + std::to_string(::getpid()) + ".part";
    std::ofstream(tmp) << j.dump(2) << '\n';
    fs::rename(tmp, path, ec);
}

} // namespace rwb::util
