# SPDX-License-Identifier: GPL-2.0
"""A file system image made on the host, in the form the guest restores.

	fs_image.py IMAGE OUT

IMAGE is a regular file that mkfs wrote (never mounted here). OUT keeps
only its blocks that are not all zero: the header "KCFSIMG1" and the
image's size, then records of offset, length (both 64-bit little
endian) and that many bytes, offsets rising. statx_dioalign_test
writes them into a sparse file of that size on the guest's tmpfs and
puts a loop device over it, so the guest mounts what the host's mkfs
made instead of running mkfs itself.
"""

import os
import struct
import sys
from typing import BinaryIO, Iterator, List, Tuple

BLOCK = 4096
MAGIC = b'KCFSIMG1'


def extents(f: BinaryIO, size: int) -> Iterator[Tuple[int, bytes]]:
	"""(offset, data) of the runs of blocks that are not all zero, read
	from the file's data regions only (mkfs leaves the rest a hole)."""
	zero = bytes(BLOCK)
	fd = f.fileno()
	pos = 0
	while pos < size:
		try:
			start = os.lseek(fd, pos, os.SEEK_DATA)
		except OSError:		# ENXIO: no data past pos
			return
		end = os.lseek(fd, start, os.SEEK_HOLE)
		run = b''
		for off in range(start - start % BLOCK, end, BLOCK):
			block = os.pread(fd, BLOCK, off)
			if block == zero[:len(block)]:
				if run:
					yield off - len(run), run
				run = b''
			else:
				run += block
		if run:
			yield end - len(run), run
		pos = end


def main(argv: List[str]) -> None:
	image, out = argv
	tmp = out + '.tmp'
	with open(image, 'rb') as f, open(tmp, 'wb') as o:
		size = os.fstat(f.fileno()).st_size
		o.write(MAGIC + struct.pack('<Q', size))
		for off, data in extents(f, size):
			o.write(struct.pack('<QQ', off, len(data)) + data)
	os.replace(tmp, out)


if __name__ == '__main__':
	main(sys.argv[1:])
