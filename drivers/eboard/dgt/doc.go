// Package dgt drives DGT electronic chessboards over their serial protocol:
// USB boards (a CDC-ACM or FTDI serial port, /dev/ttyACM0 or /dev/ttyUSB0)
// and Bluetooth boards bound to an rfcomm port (/dev/rfcomm0).
//
// # The protocol
//
// Written from DGT's public protocol header (dgtbrd13.h, version 1.03, and
// its later edition dgtbrd.h of 1998-2014 that adds the Bluetooth commands),
// as found in open-source projects, and from reading PicoChess's driver. The
// line runs at 9600 baud, 8 data bits, no parity, 1 stop bit, no handshake.
//
// The computer sends one-byte commands:
//
//	0x40 DGT_SEND_RESET          idle mode: no more updates
//	0x42 DGT_SEND_BRD            answer with a board dump
//	0x44 DGT_SEND_UPDATE_BRD     send a field update for every change
//	0x4b DGT_SEND_UPDATE_NICE    the same, plus clock times when they change
//	0x45 DGT_RETURN_SERIALNR     answer with the 5-digit serial number
//	0x55 DGT_RETURN_LONG_SERIALNR answer with the 10-digit serial number
//	0x4d DGT_SEND_VERSION        answer with the firmware version
//	0x4c DGT_SEND_BATTERY_STATUS answer with the battery (Bluetooth boards)
//
// The board sends messages of a three-byte header and data: the message id
// with its most significant bit set (0x80 | code), then the total length of
// the message, header included, in two bytes of seven bits each (high seven
// bits first). Every data byte has its most significant bit clear, so a byte
// with that bit set can only start a message: the decoder resynchronises on
// it. The messages read here:
//
//	0x86 board dump     67 bytes: the piece code of 64 squares, a8 first
//	                    (a8 b8 ... h8, a7 ... h1)
//	0x8e field update   5 bytes: square number (0 is a8, 63 is h1), piece
//	                    code now on it (0 when a piece was lifted)
//	0x91 serial number  5 ASCII digits (some firmware adds " 1.0")
//	0xa2 long serial    13 bytes: 10 ASCII digits
//	0x93 version        5 bytes: main and sub version, binary
//	0xa0 battery        percent left first; the header gives its size as 7
//	                    and describes 9 data bytes, so any size from 4 to 32
//	                    is taken and only the percent and the status bits
//	                    read
//
// Piece codes: 0 empty; 1 to 6 white pawn, rook, knight, bishop, king,
// queen; 7 to 12 black pawn, rook, knight, bishop, king, queen; 13 to 15
// reserved for a pointing device (reported as fen.Unknown). Other
// messages (clock times 0x8d, bus address 0x90, trademark 0x92, the EEPROM
// dump 0x8f) are framed, bounded and skipped.
//
// The header's licence statement, quoted exactly as found in dgtbrd13.h:
//
//	This protocol is protected under trade mark registration and copyrights.
//	It may not be used commercially without written permission
//	of DGT Projects B.V. It is illegal to transfer any registered trade mark
//	identifications by means of this protocol between any chessboard or other
//	application and any computer.
//
// zeitnot ships no part of DGT's header; this package is an independent
// implementation of the protocol described there. Whoever sells a product
// built on it should read that statement and ask DGT.
//
// # Bounds
//
// Everything the board sends is untrusted. The Decoder never panics, never
// blocks and holds at most one message of the largest size it keeps (a
// board dump, 67 bytes, or a 300-byte trademark); a length that lies is
// caught by the next byte with its top bit set, a message whose length does
// not match its kind is dropped, a message longer than 16,383 bytes cannot be
// framed. A board dump holds exactly 64 codes, so a board that claims 200
// pieces cannot be expressed; a dump with a code above 15 is dropped whole.
//
// # Ports
//
// Open takes a device path, or "auto": the one entry of /dev/serial/by-id
// whose name contains "DGT" (udev names it from the USB manufacturer and
// product strings, usb-<manufacturer>_<product>_<serial>-if00; DGT's USB
// boards report DGT in them). With no such entry, or more than one, "auto"
// fails and names what it found; then give the path. Bluetooth boards have
// no by-id entry: bind them with rfcomm and give /dev/rfcommN.
package dgt
