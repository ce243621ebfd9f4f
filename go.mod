module sortie

go 1.26
