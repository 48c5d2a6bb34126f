#include "CV4L2.h"

#include <libv4l2.h>
#include <sys/mman.h>

// Layouts Swift relies on (x86_64 / aarch64 with 64-bit time_t).
_Static_assert(sizeof(struct v4l2_buffer) == 88, "v4l2_buffer layout");
_Static_assert(sizeof(struct v4l2_format) == 208, "v4l2_format layout");
_Static_assert(sizeof(struct v4l2_capability) == 104, "v4l2_capability layout");
_Static_assert(sizeof(struct v4l2_query_ext_ctrl) == 232, "v4l2_query_ext_ctrl layout");
_Static_assert(sizeof(struct v4l2_requestbuffers) == 20, "v4l2_requestbuffers layout");
_Static_assert(sizeof(struct v4l2_fmtdesc) == 64, "v4l2_fmtdesc layout");
_Static_assert(sizeof(struct v4l2_frmsizeenum) == 44, "v4l2_frmsizeenum layout");
_Static_assert(sizeof(struct v4l2_frmivalenum) == 52, "v4l2_frmivalenum layout");
_Static_assert(sizeof(struct v4l2_streamparm) == 204, "v4l2_streamparm layout");
_Static_assert(sizeof(struct v4l2_querymenu) == 44, "v4l2_querymenu layout");
_Static_assert(sizeof(struct v4l2_control) == 8, "v4l2_control layout");

const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long CV4L2_VIDIOC_G_FMT = VIDIOC_G_FMT;
const unsigned long CV4L2_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long CV4L2_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long CV4L2_VIDIOC_S_PARM = VIDIOC_S_PARM;
const unsigned long CV4L2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long CV4L2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long CV4L2_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long CV4L2_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long CV4L2_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long CV4L2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
const unsigned long CV4L2_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
const unsigned long CV4L2_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
const unsigned long CV4L2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
const unsigned long CV4L2_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
const unsigned long CV4L2_VIDIOC_G_EXT_CTRLS = VIDIOC_G_EXT_CTRLS;
const unsigned long CV4L2_VIDIOC_S_EXT_CTRLS = VIDIOC_S_EXT_CTRLS;

const uint32_t CV4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
const uint32_t CV4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
const uint32_t CV4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
const uint32_t CV4L2_PIX_FMT_BGR24 = V4L2_PIX_FMT_BGR24;
const uint32_t CV4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
const uint32_t CV4L2_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;
const uint32_t CV4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
const uint32_t CV4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;

const uint32_t CV4L2_CID_BRIGHTNESS = V4L2_CID_BRIGHTNESS;
const uint32_t CV4L2_CID_EXPOSURE_AUTO = V4L2_CID_EXPOSURE_AUTO;
const uint32_t CV4L2_CID_EXPOSURE_ABSOLUTE = V4L2_CID_EXPOSURE_ABSOLUTE;
const uint32_t CV4L2_CID_PAN_RELATIVE = V4L2_CID_PAN_RELATIVE;
const uint32_t CV4L2_CID_TILT_RELATIVE = V4L2_CID_TILT_RELATIVE;
const uint32_t CV4L2_CID_PAN_ABSOLUTE = V4L2_CID_PAN_ABSOLUTE;
const uint32_t CV4L2_CID_TILT_ABSOLUTE = V4L2_CID_TILT_ABSOLUTE;
const uint32_t CV4L2_CID_PAN_SPEED = V4L2_CID_PAN_SPEED;
const uint32_t CV4L2_CID_TILT_SPEED = V4L2_CID_TILT_SPEED;
const uint32_t CV4L2_CID_FOCUS_ABSOLUTE = V4L2_CID_FOCUS_ABSOLUTE;
const uint32_t CV4L2_CID_FOCUS_AUTO = V4L2_CID_FOCUS_AUTO;
const uint32_t CV4L2_CID_ZOOM_ABSOLUTE = V4L2_CID_ZOOM_ABSOLUTE;
const uint32_t CV4L2_CID_ZOOM_CONTINUOUS = V4L2_CID_ZOOM_CONTINUOUS;
const uint32_t CV4L2_CID_PRIVACY = V4L2_CID_PRIVACY;
const uint32_t CV4L2_CTRL_FLAG_NEXT_CTRL_VALUE = V4L2_CTRL_FLAG_NEXT_CTRL;
const uint32_t CV4L2_CTRL_FLAG_NEXT_COMPOUND_VALUE = V4L2_CTRL_FLAG_NEXT_COMPOUND;

int cv4l2_open(const char *path, int flags) { return v4l2_open(path, flags); }
int cv4l2_close(int fd) { return v4l2_close(fd); }
int cv4l2_ioctl(int fd, unsigned long request, void *argument) { return v4l2_ioctl(fd, request, argument); }
void *cv4l2_mmap(size_t length, int fd, int64_t offset) {
    return v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
}
int cv4l2_munmap(void *start, size_t length) { return v4l2_munmap(start, length); }
void *cv4l2_map_failed(void) { return MAP_FAILED; }
