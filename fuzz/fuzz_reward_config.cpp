// Any bytes as a reward config (docs/config.md) against the built-in registry: refused with
// data::InputException (or std::invalid_argument), or a config whose own JSON (toJson)
// parses again to the same JSON. Anything else is a bug: abort.
#include "data/jsonl.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "task/catalog.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const rwb::reward::Registry &registry = rwb::task::Catalog::builtin().rewards();
    std::string again;
    try {
        again = rwb::reward::toJson(rwb::reward::parseRewardConfig(text, "reward.json", registry));
    } catch (const rwb::data::InputException &) {
        return 0;
    } catch (const std::invalid_argument &) {
        return 0;
    }
    try {
        const std::string third =
            rwb::reward::toJson(rwb::reward::parseRewardConfig(again, "reward.json", registry));
        if (third != again) {
            fprintf(stderr, "a config's own JSON reads back differently:\n%s\n%s\n", again.c_str(), third.c_str());
            abort();
        }
    } catch (const std::exception &e) {
        fprintf(stderr, "a config's own JSON does not parse: %s\n%s\n", e.what(), again.c_str());
        abort();
    }
    return 0;
}
