#include "data/datasplit.h"

namespace rwb::data {

std::string_view splitName(DataSplit split)
{
    switch (split) {
    case DataSplit::Train:
        return "train";
    case DataSplit::Val:
        return "val";
    case DataSplit::Test:
        return "test";
    }
    return "train";
}

std::optional<DataSplit> parseSplit(std::string_view name)
{
    if (name == "train")
        return DataSplit::Train;
    if (name == "val")
        return DataSplit::Val;
    if (name == "test")
        return DataSplit::Test;
    return std::nullopt;
}

} // namespace rwb::data
