#include "media_library.hpp"
#include <climits>
#include <cstdlib>
#include <dlfcn.h>
#include <stdexcept>
#include <unistd.h>

namespace {

constexpr const char *library_name = "libOpenDockMedia.so";

struct MediaLibrary {
    void *handle = nullptr;
    std::string failure;
};

/// OPENDOCK_MEDIA_LIBRARY when set (a packaged install's path); else beside the running program
/// (where `swift build` puts both), then wherever the dynamic linker looks (LD_LIBRARY_PATH).
MediaLibrary load() {
    MediaLibrary library;
    if (const char *chosen = getenv("OPENDOCK_MEDIA_LIBRARY"); chosen != nullptr && *chosen != '\0') {
        library.handle = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
        if (library.handle == nullptr) {
            const char *reason = dlerror();
            library.failure = std::string("OPENDOCK_MEDIA_LIBRARY=") + chosen + " cannot be loaded (" +
                              (reason ? reason : "not found") + "): point it at libOpenDockMedia.so or unset it";
        }
        return library;
    }
    char program[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
    if (length > 0) {
        std::string path(program, static_cast<size_t>(length));
        path = path.substr(0, path.rfind('/') + 1) + library_name;
        library.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    }
    if (library.handle == nullptr) library.handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (library.handle == nullptr) {
        const char *reason = dlerror();
        library.failure = std::string("recordings, video files and image files need ") + library_name +
                          " beside this program (" + (reason ? reason : "not found") +
                          "): `swift build` builds it; copy it along when you install the program elsewhere";
    }
    return library;
}

const MediaLibrary &media() {
    static const MediaLibrary library = load();
    return library;
}

}  // namespace

namespace cvs {

void *media_symbol(const char *name) {
    const MediaLibrary &library = media();
    if (library.handle == nullptr) throw std::runtime_error(library.failure);
    void *symbol = dlsym(library.handle, name);
    if (symbol == nullptr)
        throw std::runtime_error(std::string(library_name) + " has no " + name + ": it is older than this program; rebuild both");
    return symbol;
}

std::string media_error() { return media_entry<const char *()>("cvisionmedia_last_error")(); }

}  // namespace cvs
