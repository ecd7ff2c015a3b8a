#include "embed/embedder.h"

#include <cmath>
#include <stdexcept>

namespace rwb::embed {

Embedder::~Embedder() = default;

double Embedder::similarity(std::string_view a, std::string_view b) const
{
    const std::vector<std::vector<float>> v = embed({std::string(a), std::string(b)}, EmbedRole::Document);
    return cosine(v.at(0), v.at(1));
}

double cosine(const std::vector<float> &a, const std::vector<float> &b)
{
    if (a.size() != b.size())
        throw std::invalid_argument("cosine: vectors of different lengths (" + std::to_string(a.size()) + " and " +
                                    std::to_string(b.size()) + ")");
    double dot = 0.0, aa = 0.0, bb = 0.0;
    for (size_t i = 0; i < a.size(); ++i) {
        dot += static_cast<double>(a[i]) * b[i];
        aa += static_cast<double>(a[i]) * a[i];
        bb += static_cast<double>(b[i]) * b[i];
    }
    if (aa == 0.0 || bb == 0.0)
        return 0.0;
    return dot / (std::sqrt(aa) * std::sqrt(bb));
}

} // namespace rwb::embed
