#include "text/markers.h"

#include "text/normalize.h"

#include <algorithm>

namespace rwb::text {

const std::vector<std::u32string> &legalEntityMarkers()
{
    static const std::vector<std::u32string> markers = [] {
        // The first paper's fig. 5, in its order.
        const char *const raw[] = {
            "株式会社", "有限会社", "合同会社", "合資会社", "合名会社", "相互会社", "特殊会社",
            "信用金庫", "信用組合", "信用保険会社", "学校法人", "社団法人", "財団法人", "医療法人",
            "監査法人", "国立大学法人", "(株)", "(有)", "(合)",
        };
        std::vector<std::u32string> v;
        for (const char *m : raw)
            v.push_back(normalize32(m));
        std::stable_sort(v.begin(), v.end(),
                         [](const std::u32string &a, const std::u32string &b) { return a.size() > b.size(); });
        return v;
    }();
    return markers;
}

StrippedText stripMarkers(std::u32string_view normalized)
{
    StrippedText out;
    out.text.assign(normalized);
    // Quick reject: every marker contains one of these code points.
    bool any = false;
    for (char32_t c : out.text) {
        if (c == U'会' || c == U'法' || c == U'信' || c == U'(') {
            any = true;
            break;
        }
    }
    if (!any)
        return out;
    bool changed = true;
    while (changed) {
        changed = false;
        for (const std::u32string &m : legalEntityMarkers()) {
            size_t pos = 0;
            while ((pos = out.text.find(m, pos)) != std::u32string::npos) {
                out.text.erase(pos, m.size());
                out.removed.push_back(m);
                changed = true;
            }
        }
    }
    return out;
}

} // namespace rwb::text
