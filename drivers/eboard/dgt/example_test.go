package dgt_test

import (
	"fmt"
	"log"
	"net"

	"github.com/zeitnot/zeitnot/drivers/eboard/dgt"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/engine/fen"
)

func ExampleOpen() {
	// A DGT board on USB; "auto" finds it under /dev/serial/by-id.
	b, err := dgt.Open("auto", nil)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	for {
		e, err := b.Next()
		if err != nil {
			log.Fatal(err) // unplugged: open it again
		}
		fmt.Println(e.At, e.Square, e.Piece, e.Position.String())
	}
}

func ExampleNew() {
	// A simulated board on a pipe stands in for the serial port.
	a, b := net.Pipe()
	sim := simdgt.New(fen.Start, nil)
	go sim.Serve(b)

	d, err := dgt.New(a, "pipe", nil)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	fmt.Println(d, d.Info().Serial, d.Info().Version)
	e, _ := d.Next()
	fmt.Println("dump:", e.Position.String())
	sim.Lift(fen.NewSquare(6, 0)) // g1
	e, _ = d.Next()
	fmt.Println(e.Square, "now", e.Piece)
	// Output:
	// dgt board on pipe 00137 1.7
	// dump: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR
	// g1 now .
}

func ExampleDecoder() {
	var d dgt.Decoder
	stream := []byte{0x13, 0x37, 0x8e, 0x00, 0x05, 52, 0x00, 0x8e, 0x00, 0x05, 36, 0x01}
	d.Feed(stream, func(m dgt.Message) { fmt.Println(m.Square, m.Piece) })
	fmt.Printf("%+v\n", d.Stats())
	// Output:
	// e2 .
	// e4 P
	// {Messages:2 Skipped:0 Dropped:2 Last:byte 0x13 outside a message}
}
