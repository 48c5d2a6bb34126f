// libOpenDockMedia.so (Sources/CVisionMedia): recordings, video files and image files, loaded
// the first time one is needed, so a program that never opens one never maps the hundreds of
// libraries OpenCV's videoio and imgcodecs bring in.
#pragma once
#include <string>

namespace cvs {

/// The media library's entry point `name`; throws std::runtime_error saying how to get the
/// library when it cannot be loaded.
void *media_symbol(const char *name);

template <typename Function>
Function *media_entry(const char *name) {
    return reinterpret_cast<Function *>(media_symbol(name));
}

/// The media library's message for its last failure on this thread.
std::string media_error();

}  // namespace cvs
