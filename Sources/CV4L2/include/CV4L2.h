// linux/videodev2.h and libv4l2 as Swift can use them: the ioctl request numbers, pixel
// formats and control ids are function-like macros that Swift cannot see, so they are exported
// here as constants; libv4l2's variadic v4l2_ioctl gets a fixed-arity wrapper.
#ifndef CV4L2_H
#define CV4L2_H

#include <linux/videodev2.h>
#include <stddef.h>
#include <stdint.h>

// ioctl requests
extern const unsigned long CV4L2_VIDIOC_QUERYCAP;
extern const unsigned long CV4L2_VIDIOC_ENUM_FMT;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long CV4L2_VIDIOC_G_FMT;
extern const unsigned long CV4L2_VIDIOC_S_FMT;
extern const unsigned long CV4L2_VIDIOC_G_PARM;
extern const unsigned long CV4L2_VIDIOC_S_PARM;
extern const unsigned long CV4L2_VIDIOC_REQBUFS;
extern const unsigned long CV4L2_VIDIOC_QUERYBUF;
extern const unsigned long CV4L2_VIDIOC_QBUF;
extern const unsigned long CV4L2_VIDIOC_DQBUF;
extern const unsigned long CV4L2_VIDIOC_STREAMON;
extern const unsigned long CV4L2_VIDIOC_STREAMOFF;
extern const unsigned long CV4L2_VIDIOC_QUERY_EXT_CTRL;
extern const unsigned long CV4L2_VIDIOC_QUERYMENU;
extern const unsigned long CV4L2_VIDIOC_G_CTRL;
extern const unsigned long CV4L2_VIDIOC_S_CTRL;
extern const unsigned long CV4L2_VIDIOC_G_EXT_CTRLS;
extern const unsigned long CV4L2_VIDIOC_S_EXT_CTRLS;

// pixel formats (fourcc)
extern const uint32_t CV4L2_PIX_FMT_MJPEG;
extern const uint32_t CV4L2_PIX_FMT_JPEG;
extern const uint32_t CV4L2_PIX_FMT_YUYV;
extern const uint32_t CV4L2_PIX_FMT_BGR24;
extern const uint32_t CV4L2_PIX_FMT_RGB24;
extern const uint32_t CV4L2_PIX_FMT_GREY;
extern const uint32_t CV4L2_PIX_FMT_NV12;
extern const uint32_t CV4L2_PIX_FMT_YUV420;

// control ids
extern const uint32_t CV4L2_CID_BRIGHTNESS;
extern const uint32_t CV4L2_CID_EXPOSURE_AUTO;
extern const uint32_t CV4L2_CID_EXPOSURE_ABSOLUTE;
extern const uint32_t CV4L2_CID_PAN_RELATIVE;
extern const uint32_t CV4L2_CID_TILT_RELATIVE;
extern const uint32_t CV4L2_CID_PAN_ABSOLUTE;
extern const uint32_t CV4L2_CID_TILT_ABSOLUTE;
extern const uint32_t CV4L2_CID_PAN_SPEED;
extern const uint32_t CV4L2_CID_TILT_SPEED;
extern const uint32_t CV4L2_CID_FOCUS_ABSOLUTE;
extern const uint32_t CV4L2_CID_FOCUS_AUTO;
extern const uint32_t CV4L2_CID_ZOOM_ABSOLUTE;
extern const uint32_t CV4L2_CID_ZOOM_CONTINUOUS;
extern const uint32_t CV4L2_CID_PRIVACY;
extern const uint32_t CV4L2_CTRL_FLAG_NEXT_CTRL_VALUE;
extern const uint32_t CV4L2_CTRL_FLAG_NEXT_COMPOUND_VALUE;

/// libv4l2: open with format emulation (conversion of formats the camera lacks).
int cv4l2_open(const char *path, int flags);
int cv4l2_close(int fd);
/// libv4l2's ioctl with one pointer argument; -1 with errno set on failure.
int cv4l2_ioctl(int fd, unsigned long request, void *argument);
/// Maps a driver buffer read/write, shared. Returns MAP_FAILED ((void *)-1) on failure.
void *cv4l2_mmap(size_t length, int fd, int64_t offset);
int cv4l2_munmap(void *start, size_t length);
/// MAP_FAILED, which Swift cannot spell.
void *cv4l2_map_failed(void);

#endif
