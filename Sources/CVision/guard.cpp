#include "guard.hpp"
#include <dlfcn.h>
#include <malloc.h>
#include <stdexcept>

namespace {
thread_local std::string last_error;
}

namespace cvs {

void set_error(const std::string &message) { last_error = message; }
void clear_error() { last_error.clear(); }

void require(const cvision_view &view, const char *name) {
    if (view.data == nullptr || view.width <= 0 || view.height <= 0)
        throw std::invalid_argument(std::string(name) + " is empty");
    if (view.channels != 1 && view.channels != 3)
        throw std::invalid_argument(std::string(name) + " must have 1 or 3 channels");
    if (view.stride < static_cast<size_t>(view.width) * view.channels)
        throw std::invalid_argument(std::string(name) + " stride is shorter than a row");
}

cv::Mat mat(const cvision_view &view) {
    return cv::Mat(view.height, view.width, view.channels == 1 ? CV_8UC1 : CV_8UC3, view.data,
                   view.stride);
}

}  // namespace cvs

extern "C" const char *cvision_last_error(void) { return last_error.c_str(); }

extern "C" void cvision_set_num_threads(int32_t count) {
    cvs::guarded("set_num_threads", 0, [&] {
        cv::setNumThreads(count);
        return 0;
    });
}

extern "C" void cvision_trim_heap(void) { malloc_trim(0); }

extern "C" void cvision_limit_heap_retention(void) {
    // One arena for every thread, and freed memory given back at once rather than kept for
    // the next allocation: a little more contention and a few more system calls, for resident
    // memory that follows what is in use (about 1 MiB less for the live pipeline).
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
    mallopt(M_TOP_PAD, 0);
}

extern "C" uint64_t cvision_heap_in_use(void) {
    // When another allocator took over malloc (a sanitizer's runtime, a preloaded jemalloc),
    // glibc's figures describe almost nothing.
    static const bool foreign = [] {
        void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
        void *glibc_malloc = libc ? dlsym(libc, "malloc") : nullptr;
        void *used_malloc = dlsym(RTLD_DEFAULT, "malloc");
        return glibc_malloc && used_malloc && glibc_malloc != used_malloc;
    }();
    if (foreign) return UINT64_MAX;
    struct mallinfo2 info = mallinfo2();
    return static_cast<uint64_t>(info.uordblks) + static_cast<uint64_t>(info.hblkhd);
}
