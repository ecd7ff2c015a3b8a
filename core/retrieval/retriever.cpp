#include "retrieval/retriever.h"

namespace rwb::retrieval {

Retriever::~Retriever() = default;

} // namespace rwb::retrieval
