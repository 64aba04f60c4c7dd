package federation

import (
	"context"
	"errors"
)

// Known are the bodies that run the game: the world federation (2008),
// the Kazakh federation (2004) and the Kyrgyz one (1991), the national
// ones under the world's, with the national rank system as their default.
var Known = []Federation{
	{Code: "WORLD", Level: World, Founded: 2008, Names: names("World Togyz Kumalak Federation",
		"Дүниежүзілік тоғызқұмалақ федерациясы", "Дүйнөлүк тогуз коргоол федерациясы", "Всемирная федерация тогыз кумалак")},
	{Code: "KAZ", Level: National, Parent: "WORLD", Founded: 2004, Names: names("Togyz Kumalak Federation of Kazakhstan",
		"Қазақстан Республикасының тоғызқұмалақ федерациясы", "Казакстандын тогуз кумалак федерациясы",
		"Федерация тогыз кумалак Республики Казахстан")},
	{Code: "KGZ", Level: National, Parent: "WORLD", Founded: 1991, Names: names("Toguz Korgool Federation of Kyrgyzstan",
		"Қырғызстанның тоғыз қоргоол федерациясы", "Кыргызстандын тогуз коргоол федерациясы",
		"Федерация тогуз коргоола Кыргызстана")},
}

// SeedKnown creates the Known federations the register does not have
// yet, and returns the codes it created.
func (s *Service) SeedKnown(ctx context.Context) ([]string, error) {
	var made []string
	for _, f := range Known {
		if _, err := s.Federation(ctx, f.Code); err == nil {
			continue
		} else if !errors.Is(err, ErrNoFederation) {
			return made, err
		}
		if err := s.PutFederation(ctx, f); err != nil {
			return made, err
		}
		made = append(made, f.Code)
	}
	return made, nil
}
