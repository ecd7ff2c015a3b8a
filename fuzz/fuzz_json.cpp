// Any bytes through the bounded parser every outside JSON goes through (util/boundedjson.h),
// then dumped again: what a deep or strange document can do to the recursive walks after it.
#include "util/boundedjson.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    bool tooDeep = false;
    const nlohmann::json j = rwb::util::parseJsonOrDiscarded(text, &tooDeep);
    if (!j.is_discarded())
        (void)j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    try {
        (void)rwb::util::parseJson<nlohmann::ordered_json>(text, 16);
    } catch (const nlohmann::json::exception &) {
    }
    return 0;
}
